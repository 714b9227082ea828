/**
 * Connection-rule expressions, run with jexl (a parser + tree walker: no eval, no Function, no vm).
 * Expressions are compiled once when the agent is compiled; evaluation is synchronous.
 */
import { vendorModules, type JexlAstNode, type JexlExpression } from './vendor-modules.js';

export interface CompiledExpression {
  readonly source: string;
  /** Evaluates over the context; throws on a run-time failure (callers decide what that means). */
  evaluate(context: object): unknown;
}

export class ExpressionError extends Error {
  constructor(
    readonly source: string,
    detail: string,
  ) {
    super(`expression "${source}" does not parse: ${detail}`);
    this.name = 'ExpressionError';
  }
}

const toNumber = (value: unknown): number | undefined => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The `string` transform: nothing as empty text, objects and arrays as JSON, primitives as String() has them. */
const toText = (value: unknown): string => {
  switch (typeof value) {
    case 'undefined':
      return '';
    case 'object':
      return value === null ? '' : JSON.stringify(value);
    default:
      return String(value);
  }
};

const jexl = new vendorModules.Jexl();
jexl.addTransform('number', (v) => toNumber(v));
jexl.addTransform('string', (v) => toText(v));
jexl.addTransform('lower', (v) => (typeof v === 'string' ? v.toLowerCase() : v));
jexl.addTransform('upper', (v) => (typeof v === 'string' ? v.toUpperCase() : v));
jexl.addTransform('trim', (v) => (typeof v === 'string' ? v.trim() : v));
jexl.addTransform('length', (v) => (typeof v === 'string' || Array.isArray(v) ? v.length : undefined));

/** Parses `source` (throws ExpressionError with the parser's reason when it does not parse). */
export function compileExpression(source: string): CompiledExpression {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new ExpressionError(String(source), 'empty expression');
  }
  let compiled: JexlExpression;
  try {
    compiled = jexl.compile(source);
  } catch (err) {
    throw new ExpressionError(source, err instanceof Error ? err.message : String(err));
  }
  return {
    source,
    evaluate: (context: object) => compiled.evalSync(context),
  };
}

/** An identifier's chain of names from its root (`context.entities.size` → context, entities, size). */
function chainOf(node: JexlAstNode, visit: (n: JexlAstNode | undefined) => void): string[] | undefined {
  const names: string[] = [];
  let cur: JexlAstNode | undefined = node;
  while (cur?.type === 'Identifier') {
    names.unshift(String(cur.value));
    if (cur.relative) return undefined;
    if (!cur.from) return names;
    cur = cur.from;
  }
  // a chain that starts at something else (a filter, a call): its parts are read on their own
  visit(cur);
  return undefined;
}

/** The member paths an expression reads from its context, from the root name (filters' inner names excluded). */
export function expressionPaths(source: string): string[][] {
  const ast = jexl.compile(source)._getAst();
  const out: string[][] = [];
  const visit = (node: JexlAstNode | undefined): void => {
    if (!node || typeof node !== 'object') return;
    if (node.type === 'Identifier') {
      const chain = chainOf(node, visit);
      if (chain) out.push(chain);
      return;
    }
    if (node.type === 'FilterExpression') {
      visit(node.subject);
      visit(node.expr); // a relative name inside (`.a`) is the filtered item's, not the context's
      return;
    }
    if (node.type === 'ArrayLiteral' || node.type === 'ObjectLiteral') {
      for (const item of Object.values((node.value ?? {}) as Record<string, JexlAstNode>)) visit(item);
      return;
    }
    for (const child of [
      node.left,
      node.right,
      node.test,
      node.consequent,
      node.alternate,
      node.subject,
      node.expr,
      ...(node.args ?? []),
    ])
      visit(child);
  };
  visit(ast);
  return out;
}

/** The parse error of `source`, or undefined when it parses. */
export function expressionProblem(source: string): string | undefined {
  try {
    compileExpression(source);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export { toNumber };
