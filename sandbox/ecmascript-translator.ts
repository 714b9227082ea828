/**
 * Translates the ECMAScript expression subset VoiceXML documents use into a jexl expression.
 * Literals become context placeholders (no quoting issues), member access and calls go through
 * helper functions (so `undefined.x` raises like ECMAScript), and everything outside the subset
 * (assignment, object literals, functions, `new`, regular expressions, bit operators…) is rejected.
 */

export class UnsupportedExpression extends Error {}

type Tok =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'id'; v: string }
  | { t: 'op'; v: string }
  | { t: 'eof' };

const OPERATORS = [
  '===',
  '!==',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  '?',
  ':',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
];
const REJECTED = [
  '=>',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '**',
  '<<',
  '>>',
  '&',
  '|',
  '^',
  '~',
  '=',
  '{',
  '}',
  ';',
  '`',
  '\\',
  '@',
  '#',
];
const RESERVED = new Set(
  'function new this var let const delete void instanceof in return if else for while do switch case break continue throw try catch finally class extends super import export yield await with debugger'.split(
    ' ',
  ),
);
const JEXL_IDENT = /^[a-zA-Z_$][a-zA-Z0-9_$]*$/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      let v = '';
      i++;
      for (;;) {
        const d = src[i];
        if (d === undefined) throw new UnsupportedExpression('unterminated string literal');
        i++;
        if (d === c) break;
        if (d === '\\') {
          const e = src[i++];
          if (e === undefined) throw new UnsupportedExpression('unterminated string literal');
          if (e === 'u' || e === 'x') {
            const len = e === 'u' ? 4 : 2;
            const hex = src.slice(i, i + len);
            if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len)
              throw new UnsupportedExpression('bad escape');
            v += String.fromCharCode(parseInt(hex, 16));
            i += len;
          } else v += ESCAPES[e] ?? e;
        } else v += d;
      }
      toks.push({ t: 'str', v });
      continue;
    }
    const num = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(src.slice(i));
    if (num && (/\d/.test(c) || (c === '.' && /\d/.test(src[i + 1] ?? '')))) {
      toks.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_$\u00C0-\uFFFF][\w$\u00C0-\uFFFF]*/.exec(src.slice(i));
    if (id) {
      toks.push({ t: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    const rest = src.slice(i);
    const bad = REJECTED.find(
      (r) => rest.startsWith(r) && !OPERATORS.some((o) => o.length >= r.length && rest.startsWith(o)),
    );
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (bad || !op) throw new UnsupportedExpression(`unsupported syntax at "${rest.slice(0, 12)}"`);
    toks.push({ t: 'op', v: op });
    i += op.length;
  }
  toks.push({ t: 'eof' });
  return toks;
}

export interface Translation {
  jexl: string;
  literals: Record<string, unknown>;
}

/** Prefix of every helper and placeholder name the translation introduces. */
export const HELPER_PREFIX = '__vx_';

/**
 * Translates one expression. `isDeclared` tells which bare identifiers exist; reading any other one
 * raises (lazily, so `false && missing` stays legal) like an ECMAScript ReferenceError.
 */
export function translateEcmascript(src: string, isDeclared: (name: string) => boolean): Translation {
  const toks = tokenize(src);
  const literals: Record<string, unknown> = {};
  let pos = 0;
  let litCount = 0;

  const peek = (): Tok => toks[pos] as Tok;
  const isOp = (v: string): boolean => {
    const t = peek();
    return t.t === 'op' && t.v === v;
  };
  const expectOp = (v: string): void => {
    if (!isOp(v)) throw new UnsupportedExpression(`expected "${v}"`);
    pos++;
  };
  const lit = (value: unknown): string => {
    const name = `${HELPER_PREFIX}l${litCount++}`;
    literals[name] = value;
    return name;
  };

  const identifier = (name: string): string => {
    if (name === 'true' || name === 'false') return name;
    if (name === 'null') return lit(null);
    if (name === 'undefined') return lit(undefined);
    if (name === 'NaN') return lit(NaN);
    if (name === 'Infinity') return lit(Infinity);
    if (RESERVED.has(name)) throw new UnsupportedExpression(`"${name}" is not supported`);
    if (!isDeclared(name)) return `${HELPER_PREFIX}undeclared(${lit(name)})`;
    return JEXL_IDENT.test(name) && !name.startsWith(HELPER_PREFIX)
      ? name
      : `${HELPER_PREFIX}var(${lit(name)})`;
  };

  const args = (): string[] => {
    const out: string[] = [];
    expectOp('(');
    if (!isOp(')')) {
      out.push(conditional());
      while (isOp(',')) {
        pos++;
        out.push(conditional());
      }
    }
    expectOp(')');
    return out;
  };

  const primary = (): { code: string; bareName?: string } => {
    const t = peek();
    pos++;
    if (t.t === 'num') return { code: lit(t.v) };
    if (t.t === 'str') return { code: lit(t.v) };
    if (t.t === 'id') {
      if (t.v === 'typeof') {
        const next = peek();
        if (
          next.t === 'id' &&
          !isDeclared(next.v) &&
          !['true', 'false', 'null', 'undefined', 'NaN', 'Infinity'].includes(next.v)
        ) {
          const after = toks[pos + 1];
          if (!(after?.t === 'op' && ['.', '[', '('].includes(after.v))) {
            pos++;
            return { code: lit('undefined') };
          }
        }
        return { code: `${HELPER_PREFIX}typeof(${unary()})` };
      }
      return { code: identifier(t.v), bareName: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      const inner = conditional();
      expectOp(')');
      return { code: `(${inner})` };
    }
    if (t.t === 'op' && t.v === '[') {
      const items: string[] = [];
      if (!isOp(']')) {
        items.push(conditional());
        while (isOp(',')) {
          pos++;
          items.push(conditional());
        }
      }
      expectOp(']');
      return { code: `[${items.join(', ')}]` };
    }
    throw new UnsupportedExpression(
      t.t === 'eof' ? 'unexpected end of expression' : `unexpected "${t.t === 'op' ? t.v : ''}"`,
    );
  };

  const postfix = (): string => {
    const first = primary();
    let code = first.code;
    let bare = first.bareName;
    for (;;) {
      if (isOp('.')) {
        pos++;
        const name = peek();
        if (name.t !== 'id') throw new UnsupportedExpression('expected a property name after "."');
        pos++;
        if (isOp('(')) code = `${HELPER_PREFIX}call(${[code, lit(name.v), ...args()].join(', ')})`;
        else code = `${HELPER_PREFIX}get(${code}, ${lit(name.v)})`;
      } else if (isOp('[')) {
        pos++;
        const key = conditional();
        expectOp(']');
        code = `${HELPER_PREFIX}get(${code}, ${key})`;
      } else if (isOp('(')) {
        if (bare === undefined) throw new UnsupportedExpression('only named functions can be called');
        code = `${HELPER_PREFIX}fn(${[lit(bare), ...args()].join(', ')})`;
      } else return code;
      bare = undefined;
    }
  };

  const unary = (): string => {
    if (isOp('!')) {
      pos++;
      return `(!${unary()})`;
    }
    if (isOp('-')) {
      pos++;
      return `${HELPER_PREFIX}neg(${unary()})`;
    }
    if (isOp('+')) {
      pos++;
      return `${HELPER_PREFIX}num(${unary()})`;
    }
    return postfix();
  };

  const binary = (levels: string[][], level: number): string => {
    const ops = levels[level];
    if (!ops) return unary();
    let left = binary(levels, level + 1);
    for (;;) {
      const t = peek();
      if (t.t !== 'op' || !ops.includes(t.v)) return left;
      pos++;
      const right = binary(levels, level + 1);
      if (t.v === '===') left = `${HELPER_PREFIX}seq(${left}, ${right})`;
      else if (t.v === '!==') left = `(!${HELPER_PREFIX}seq(${left}, ${right}))`;
      else left = `(${left} ${t.v} ${right})`;
    }
  };
  const LEVELS = [
    ['||'],
    ['&&'],
    ['==', '!=', '===', '!=='],
    ['<', '>', '<=', '>='],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  function conditional(): string {
    const test = binary(LEVELS, 0);
    if (!isOp('?')) return test;
    pos++;
    const yes = conditional();
    expectOp(':');
    const no = conditional();
    return `(${test} ? ${yes} : ${no})`;
  }

  const code = conditional();
  if (peek().t !== 'eof') throw new UnsupportedExpression('unexpected text after the expression');
  return { jexl: code, literals };
}
