/**
 * The KEYS and flat ARGV of the atomic script (lua/atomic.lua states the encoding): guards, then
 * ops, each as a code, the 1-based KEYS index of its key and its arguments. Pure: the Redis adapter
 * sends what this answers.
 */
import type { Guard, WriteOp } from './store-port.js';

export interface AtomicArgs {
  /** KEYS, as the adapter names them (prefixed). */
  keys: string[];
  args: string[];
  /** The caller's keys (as named in the ops and guards) and their KEYS index, for error messages. */
  logical: ReadonlyMap<string, number>;
}

/**
 * With `fixed`, those keys come first, at KEYS 1..n whatever the ops name (a script that names
 * some keys itself, commit-turn.lua); the ops' other keys follow.
 */
export function encodeAtomic(
  ops: WriteOp[],
  guards: Guard[],
  physical: (key: string) => string,
  fixed: string[] = [],
): AtomicArgs {
  const keys: string[] = fixed.map(physical);
  const index = new Map<string, number>();
  fixed.forEach((key, i) => {
    if (!index.has(key)) index.set(key, i + 1);
  });
  const ref = (key: string): string => {
    let i = index.get(key);
    if (i === undefined) {
      keys.push(physical(key));
      i = keys.length;
      index.set(key, i);
    }
    return String(i);
  };
  const args: string[] = [String(guards.length)];
  for (const g of guards) {
    if ('hashField' in g) {
      if ('absent' in g) args.push('h', ref(g.key), g.hashField);
      else args.push('H', ref(g.key), g.hashField, g.equals);
    } else if ('absent' in g) args.push('a', ref(g.key));
    else if ('present' in g) args.push('x', ref(g.key));
    else args.push('e', ref(g.key), g.equals);
  }
  for (const op of ops) encodeOp(op, ref(op.key), args);
  return { keys, args, logical: index };
}

/** A score bound as Redis reads it (infinities by name). */
const score = (n: number): string => (n === Infinity ? '+inf' : n === -Infinity ? '-inf' : String(n));

/** Appends one op in the flat encoding (k: the op's KEYS index). */
function encodeOp(op: WriteOp, k: string, out: string[]): void {
  switch (op.op) {
    case 'set':
      if (op.ttlMs) out.push('S', k, op.value, String(Math.ceil(op.ttlMs)));
      else out.push('s', k, op.value);
      return;
    case 'hset': {
      const fieldsAndValues = Object.entries(op.fields).flat();
      out.push('h', k, String(fieldsAndValues.length), ...fieldsAndValues);
      return;
    }
    case 'hdel':
      out.push('D', k, String(op.fields.length));
      for (const f of op.fields) out.push(f);
      return;
    case 'hincrby':
      out.push('i', k, op.field, String(op.by));
      return;
    case 'zadd':
      out.push('z', k, String(op.score), op.member);
      return;
    case 'zrem':
      out.push('r', k, op.member);
      return;
    case 'sadd':
      out.push('a', k, op.member);
      return;
    case 'srem':
      out.push('m', k, op.member);
      return;
    case 'incrby':
      out.push('I', k, String(op.by));
      return;
    case 'pexpire':
      out.push('p', k, String(Math.ceil(op.ttlMs)));
      return;
    case 'del':
      out.push('d', k);
      return;
    case 'rpush':
      out.push('L', k, op.value, String(Math.max(1, Math.floor(op.keepLast))));
      return;
    case 'zremrangebyscore':
      out.push('Y', k, score(op.min), score(op.max));
      return;
    case 'xadd': {
      const fieldsAndValues = Object.entries(op.fields).flat();
      out.push(
        'X',
        k,
        String(Math.max(1, Math.floor(op.maxLen))),
        String(fieldsAndValues.length),
        ...fieldsAndValues,
      );
      return;
    }
  }
}
