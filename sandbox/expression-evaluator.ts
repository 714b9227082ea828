/**
 * Evaluates VoiceXML `expr`/`cond` attributes: the ECMAScript subset is translated to jexl
 * (ecmascript-translator.ts) and run by jexl over a flattened view of the scope chain. Nothing is
 * ever passed to eval. Any failure (syntax outside the subset, undeclared variable, property of
 * undefined, calling a non-whitelisted function) raises error.semantic, like a real browser.
 */
// @ts-expect-error jexl ships no type declarations: its one member used here is typed below
import jexlModule from 'jexl';
import { HELPER_PREFIX, translateEcmascript, UnsupportedExpression } from './ecmascript-translator.js';
import type { ScopeChain } from './scope-chain.js';
import { semanticError } from './vxml-event.js';

interface JexlEngine {
  addFunction(name: string, fn: (...args: unknown[]) => unknown): void;
  evalSync(expression: string, context?: Record<string, unknown>): unknown;
}
type JexlModule = { Jexl: new () => JexlEngine };

// a default import (CommonJS module.exports), so the same line loads it in Node and in the console's bundle
const { Jexl } = jexlModule as JexlModule;

const BLOCKED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const STRING_METHODS = new Set([
  'toUpperCase',
  'toLowerCase',
  'trim',
  'indexOf',
  'lastIndexOf',
  'substring',
  'substr',
  'slice',
  'charAt',
  'split',
  'startsWith',
  'endsWith',
  'includes',
  'concat',
  'toString',
  'replace',
  'padStart',
  'padEnd',
]);
const ARRAY_METHODS = new Set(['join', 'indexOf', 'includes', 'slice', 'concat', 'toString']);
const NUMBER_METHODS = new Set(['toFixed', 'toString', 'toPrecision']);
const MATH_METHODS = new Set(['round', 'floor', 'ceil', 'abs', 'min', 'max']);

const GLOBAL_FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  String: (v) => String(v),
  Number: (v) => Number(v),
  Boolean: (v) => Boolean(v),
  parseInt: (v, radix) => parseInt(String(v), radix === undefined ? undefined : Number(radix)),
  parseFloat: (v) => parseFloat(String(v)),
  isNaN: (v) => Number.isNaN(Number(v)),
  encodeURIComponent: (v) => encodeURIComponent(String(v)),
  decodeURIComponent: (v) => decodeURIComponent(String(v)),
};
const GLOBAL_OBJECTS: Record<string, unknown> = { Math };

function typeName(v: unknown): string {
  return v === null ? 'null' : typeof v;
}

function getProperty(obj: unknown, key: unknown): unknown {
  if (obj === undefined || obj === null)
    throw new TypeError(`cannot read property "${String(key)}" of ${String(obj)}`);
  const k = String(key);
  if (BLOCKED_KEYS.has(k)) return undefined;
  if (typeof obj === 'string')
    return k === 'length' ? obj.length : /^\d+$/.test(k) ? obj[Number(k)] : undefined;
  if (typeof obj !== 'object') return undefined;
  if (Array.isArray(obj) && k === 'length') return obj.length;
  if (!Object.prototype.hasOwnProperty.call(obj, k)) return undefined;
  const value = (obj as Record<string, unknown>)[k];
  return typeof value === 'function' ? undefined : value;
}

function callMethod(obj: unknown, name: unknown, ...args: unknown[]): unknown {
  const m = String(name);
  if (obj === undefined || obj === null) throw new TypeError(`cannot call ${m} on ${String(obj)}`);
  let allowed = false;
  if (typeof obj === 'string')
    allowed = STRING_METHODS.has(m) && !(m === 'replace' && typeof args[0] !== 'string');
  else if (Array.isArray(obj)) allowed = ARRAY_METHODS.has(m);
  else if (typeof obj === 'number') allowed = NUMBER_METHODS.has(m);
  else if (obj === Math) allowed = MATH_METHODS.has(m);
  if (!allowed) throw new TypeError(`${m} is not a supported function of a ${typeName(obj)}`);
  const fn = (obj as Record<string, unknown>)[m] as (...a: unknown[]) => unknown;
  return fn.apply(obj, args);
}

export class ExpressionEvaluator {
  private readonly jexl: JexlEngine = new Jexl();
  private context: Record<string, unknown> = {};

  constructor() {
    const add = (name: string, fn: (...args: unknown[]) => unknown): void =>
      this.jexl.addFunction(HELPER_PREFIX + name, fn);
    add('get', getProperty);
    add('call', callMethod);
    add('seq', (a, b) => a === b);
    add('neg', (a) => -(a as number));
    add('num', (a) => Number(a));
    add('typeof', (a) => typeof a);
    add('var', (name) => this.context[String(name)]);
    add('undeclared', (name) => {
      throw new ReferenceError(`${String(name)} is not defined`);
    });
    add('fn', (name, ...args) => {
      const fn = GLOBAL_FUNCTIONS[String(name)];
      if (!fn) throw new TypeError(`${String(name)} is not a supported function`);
      return fn(...args);
    });
  }

  /** The value of an ECMAScript expression in the given scope; error.semantic on any failure. */
  evaluate(expr: string, scope: ScopeChain): unknown {
    const source = expr.trim();
    if (source === '') throw semanticError('empty expression');
    const visible = scope.flatten();
    const declared = (name: string): boolean => name in visible || name in GLOBAL_OBJECTS;
    let translation;
    try {
      translation = translateEcmascript(source, declared);
    } catch (err) {
      const why = err instanceof UnsupportedExpression ? err.message : String(err);
      throw semanticError(`cannot evaluate "${source}": ${why}`);
    }
    const context: Record<string, unknown> = Object.assign(
      Object.create(null) as Record<string, unknown>,
      GLOBAL_OBJECTS,
      visible,
      translation.literals,
    );
    const previous = this.context;
    this.context = context;
    try {
      return this.jexl.evalSync(translation.jexl, context);
    } catch (err) {
      throw semanticError(`"${source}": ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.context = previous;
    }
  }

  /** ECMAScript truthiness of a `cond` (absent cond = true). */
  condition(expr: string | undefined, scope: ScopeChain): boolean {
    if (expr === undefined) return true;
    return Boolean(this.evaluate(expr, scope));
  }
}
