/**
 * The flat argument list of `atomicScript` (redis-scripts.ts states the encoding): guards, then ops,
 * each as a code, the 1-based KEYS index of its key and its arguments. Pure: the Redis adapter sends
 * what this answers. A run of zadds of one member and score (a message into each of its indexes)
 * travels as one `Z` entry.
 */
import type { Guard, WriteOp } from './store-port.js';

export interface AtomicArgs {
  /** KEYS, as the adapter names them (prefixed). */
  keys: string[];
  args: string[];
  /** The caller's keys (as named in the ops and guards) and their KEYS index, for error messages. */
  logical: ReadonlyMap<string, number>;
}

export function encodeAtomic(ops: WriteOp[], guards: Guard[], physical: (key: string) => string): AtomicArgs {
  const keys: string[] = [];
  const index = new Map<string, number>();
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
  for (let o = 0; o < ops.length; o++) {
    const op = ops[o]!;
    if (op.op === 'zadd') {
      let end = o + 1;
      while (end < ops.length) {
        const next = ops[end]!;
        if (next.op !== 'zadd' || next.member !== op.member || next.score !== op.score) break;
        end++;
      }
      if (end - o > 1) {
        args.push('Z', String(end - o), String(op.score), op.member);
        for (let j = o; j < end; j++) args.push(ref(ops[j]!.key));
        o = end - 1;
        continue;
      }
    }
    encodeOp(op, ref(op.key), args);
  }
  return { keys, args, logical: index };
}

/** Appends one op in the flat encoding (k: the op's KEYS index). */
function encodeOp(op: WriteOp, k: string, out: string[]): void {
  switch (op.op) {
    case 'set':
      if (op.ttlMs) out.push('S', k, op.value, String(Math.ceil(op.ttlMs)));
      else out.push('s', k, op.value);
      return;
    case 'hset': {
      const at = out.length;
      out.push('h', k, '');
      for (const name in op.fields) out.push(name, op.fields[name]!);
      out[at + 2] = String(out.length - at - 3);
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
  }
}
