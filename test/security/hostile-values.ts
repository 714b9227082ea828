/**
 * fast-check arbitraries of hostile input: strings with NUL, lone surrogates, XML and template
 * metacharacters; huge strings; deep nesting (up to 5,000 levels); prototype-pollution keys (as
 * JSON keys and as query keys); values of every JSON type; and mutations of a valid body, so
 * most runs get past the first check and reach the deeper ones.
 */
import fc from 'fast-check';

/** The marker a successful pollution would leave on Object.prototype. */
export const POLLUTION_MARK = 'fuzzPolluted';

export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'isPrototypeOf',
];

const SPECIAL = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ufffe',
  '\uffff',
  '\u202e',
  '\u2028',
  '\u0085',
  '\r\n',
  '\t',
  '\u0007',
  '\u001b',
  '<',
  '>',
  '&',
  '"',
  "'",
  ']]>',
  '<!--',
  '<?xml',
  '%',
  '%00',
  '{{',
  '}}',
  '${',
  '$',
  '\\',
  '/',
  '..',
  '😀',
  'é',
  '\u0301',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

export const hostileChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);

/** Long strings: up to 100,000 repetitions of one awkward piece (the body limit is 1 MB). */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 5_000, max: 100_000 }),
    fc.constantFrom('x', 'é', '😀', '\u0000', '<&', '\ud800', 'a b ', '9'),
  )
  .map(([n, piece]) => piece.repeat(Math.ceil(n / piece.length)));

const NOTABLE = [
  ...PROTO_KEYS,
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '2.0',
  '9'.repeat(30),
  'true',
  'false',
  '<vxml/>',
  '</prompt><exit/>',
  "'; throw 1; '",
  '{{constructor.constructor("return process")()}}',
  '$..*',
  '../../etc/passwd',
  'st-00000000-0000-0000-0000-000000000000',
  'poll',
  'hangup',
  'transfer',
  'maxretries',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: hostileChar, maxLength: 24 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NOTABLE) },
  { weight: 1, arbitrary: hugeString },
);

/** Arrays or objects nested 30 to 5,000 levels deep (around the body's 64-level limit, and far past it). */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 30, max: 64 }), fc.integer({ min: 65, max: 5_000 }), fc.constant(5_000)),
    fc.constantFrom('array', 'object', 'mixed'),
  )
  .map(([depth, kind]) => {
    let v: unknown = 'bottom';
    for (let i = 0; i < depth; i++)
      v = kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [v] : { a: v };
    return v;
  });

/** An object whose own keys may be __proto__ and friends (Object.fromEntries keeps them as data). */
const withKeys = (entries: Array<[string, unknown]>): Record<string, unknown> => Object.fromEntries(entries);

/** A pollution attempt: {"__proto__": {mark: ...}} or {"constructor": {"prototype": {mark: ...}}}. */
export const pollutionValue: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(
  withKeys([['__proto__', { [POLLUTION_MARK]: 'yes' }]]),
  withKeys([['constructor', { prototype: { [POLLUTION_MARK]: 'yes' } }]]),
  withKeys([['prototype', { [POLLUTION_MARK]: 'yes' }]]),
  withKeys([['__proto__', withKeys([['__proto__', { [POLLUTION_MARK]: 'yes' }]])]]),
  withKeys([['a', withKeys([['__proto__', { [POLLUTION_MARK]: 'yes', toString: 'x', valueOf: 1 }]])]]),
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 3, arbitrary: fc.string({ unit: hostileChar, maxLength: 12 }) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 2.0000000001, 1e21),
);

/** Any JSON value, with hostile strings, keys and the odd deep or pollution member. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: Record<string, unknown>;
}>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: hostileString },
    { weight: 1, arbitrary: number },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 2, arbitrary: tie('array') },
    { weight: 2, arbitrary: tie('object') },
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map(withKeys),
})).value;

const rareExtras = fc.oneof(
  { weight: 3, arbitrary: hostileValue },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: pollutionValue },
);

/** Every path (list of keys) into a JSON value, the root included. */
function pathsOf(
  v: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...prefix, i], out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...prefix, k], out);
  return out;
}

const isContainer = (v: unknown): v is Record<string | number, unknown> =>
  v !== null && typeof v === 'object';
const copyOf = (v: Record<string | number, unknown>): Record<string | number, unknown> =>
  Array.isArray(v) ? (v.slice() as unknown as Record<number, unknown>) : { ...v };
const define = (target: Record<string | number, unknown>, key: string | number, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/**
 * Replaces the member at `path` (or adds `key` to the object there), copying only the containers
 * along the path (no deep clone: a 5,000-level value is shared, never walked). A path that no
 * longer leads to a container (an earlier mutation replaced it) leaves the body as it is.
 */
function setAt(
  root: unknown,
  path: Array<string | number>,
  value: unknown,
  mode: 'replace' | 'add',
  key: string,
): unknown {
  if (path.length === 0) {
    if (mode === 'replace') return value;
    if (!isContainer(root) || Array.isArray(root)) return root;
    const copy = copyOf(root);
    define(copy, key, value);
    return copy;
  }
  if (!isContainer(root)) return root;
  const [head, ...rest] = path;
  const copy = copyOf(root);
  define(copy, head!, setAt(root[head!], rest, value, mode, key));
  return copy;
}

/** A valid body with one member replaced by (or one key added with) a hostile value; or any value. */
export function mutatedBody(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  const mutation = fc
    .tuple(
      fc.constantFrom(...paths),
      fc.constantFrom('replace' as const, 'add' as const),
      hostileKey,
      rareExtras,
    )
    .map(([path, mode, key, value]) => setAt(valid, path, value, mode, key));
  const twice = fc
    .tuple(mutation, fc.constantFrom(...paths), hostileKey, pollutionValue)
    .map(([body, path, key, value]) => setAt(body, path, value, 'add', key));
  return fc.oneof(
    { weight: 5, arbitrary: mutation },
    { weight: 2, arbitrary: twice },
    { weight: 2, arbitrary: hostileValue },
    { weight: 1, arbitrary: deepValue },
  );
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a browser sends them). */
export const pct = (s: string): string =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Query keys that try to pollute through bracket or dot parsing. */
export const QUERY_POLLUTERS = [
  `__proto__[${POLLUTION_MARK}]`,
  `constructor[prototype][${POLLUTION_MARK}]`,
  `__proto__.${POLLUTION_MARK}`,
  `a[__proto__][${POLLUTION_MARK}]`,
  `constructor.prototype.${POLLUTION_MARK}`,
  '__proto__',
  'constructor',
  'prototype',
  'a[]',
  'a[0]',
  'a[999999999]',
];

/** One raw query fragment: key=value pairs with hostile keys and values, some malformed on purpose. */
export const queryPair = (keys: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), hostileString)
        .map(([k, v]) => `${pct(k)}=${pct(v.slice(0, 2000))}`),
    },
    { weight: 2, arbitrary: fc.constantFrom(...QUERY_POLLUTERS).map((k) => `${k}=1`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz=1', '=', '&&', 'a=%E0%A4%A', 'a=%FF%FE', 'b=%00', ';', '#frag'),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(hostileKey, hostileString).map(([k, v]) => `${pct(k)}=${pct(v.slice(0, 2000))}`),
    },
  );

export const queryString = (keys: string[]): fc.Arbitrary<string> =>
  fc.array(queryPair(keys), { maxLength: 6 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));

/** A hostile path segment (percent-encoded bytes, sometimes malformed encoding). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map((s) => pct(s.slice(0, 300)) || 'x') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%E0%A4%A',
      '%FF',
      '..',
      '%2e%2e',
      '%2F',
      '__proto__',
      'constructor',
      'x'.repeat(5000),
    ),
  },
);

/**
 * JSON text of a value without recursion: JSON.stringify overflows the stack on a few thousand
 * levels (JSON.parse does not), and the point is to send such bodies.
 */
export function toJsonText(root: unknown): string {
  const out: string[] = [];
  type Frame =
    | { kind: 'array'; items: unknown[]; i: number }
    | { kind: 'object'; entries: Array<[string, unknown]>; i: number };
  const stack: Frame[] = [];
  const scalar = (v: unknown): string | null => {
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') return 'null';
    if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    if (typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint')
      return JSON.stringify(typeof v === 'bigint' ? String(v) : v);
    return null;
  };
  const open = (v: unknown): void => {
    const s = scalar(v);
    if (s !== null) {
      out.push(s);
    } else if (Array.isArray(v)) {
      out.push('[');
      stack.push({ kind: 'array', items: v, i: 0 });
    } else {
      out.push('{');
      stack.push({ kind: 'object', entries: Object.entries(v as object), i: 0 });
    }
  };
  open(root);
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    const n = f.kind === 'array' ? f.items.length : f.entries.length;
    if (f.i >= n) {
      out.push(f.kind === 'array' ? ']' : '}');
      stack.pop();
      continue;
    }
    if (f.i > 0) out.push(',');
    if (f.kind === 'array') {
      open(f.items[f.i++]);
    } else {
      const [k, v] = f.entries[f.i++]!;
      out.push(`${JSON.stringify(k)}:`);
      open(v);
    }
  }
  return out.join('');
}
