/**
 * The flat argument list of `atomicScript` (redis-scripts.ts states the encoding): guards, then ops,
 * each as a code, the 1-based KEYS index of its key and its arguments. Pure: the Redis adapter sends
 * what this answers. A run of zadds travels as `Z` entries, one per set of keys that receive the
 * same members: a turn's two messages go into each of their five indexes as five ZADDs of two
 * members, not ten of one (each ZADD a script makes costs Redis a call).
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
      while (end < ops.length && ops[end]!.op === 'zadd') end++;
      if (end - o > 1) {
        encodeZaddRun(ops as Array<Extract<WriteOp, { op: 'zadd' }>>, o, end, ref, args);
        o = end - 1;
        continue;
      }
    }
    encodeOp(op, ref(op.key), args);
  }
  return { keys, args, logical: index };
}

/** Pairs in one `Z` entry at most: the script unpacks them onto Lua's stack (8,000 slots). */
export const ZADD_PAIRS_MAX = 500;

/**
 * The zadds ops[from, to) as `Z` entries: `Z c p s1 m1 … sp mp k1 … kc` adds the p pairs, in order, to
 * each of the c keys. Each key's pairs keep their order (a member added twice keeps the later
 * score, as in the ops), and keys that receive the same pairs share one entry. Zadds to different
 * keys commute, so the run's result is the ops' result.
 */
function encodeZaddRun(ops: Array<Extract<WriteOp, { op: 'zadd' }>>, from: number, to: number, ref: (key: string) => string, out: string[]): void {
  if (encodeBlocks(ops, from, to, ref, out)) return;
  // each key (in the order of its first op) with its pairs
  const pairsOf = new Map<string, string[]>();
  for (let j = from; j < to; j++) {
    const op = ops[j]!;
    const pairs = pairsOf.get(op.key);
    if (pairs) pairs.push(String(op.score), op.member);
    else pairsOf.set(op.key, [String(op.score), op.member]);
  }
  // keys with the same pairs share an entry, found by a length-prefixed text of the pairs
  const groups = new Map<string, { pairs: string[]; keys: string[] }>();
  for (const [key, pairs] of pairsOf) {
    let same = '';
    for (const part of pairs) same += `${part.length}:${part}`;
    const group = groups.get(same);
    if (group) group.keys.push(key);
    else groups.set(same, { pairs, keys: [key] });
  }
  for (const { pairs, keys: targets } of groups.values()) {
    for (let at = 0; at < pairs.length; at += 2 * ZADD_PAIRS_MAX) {
      const chunk = Math.min(pairs.length - at, 2 * ZADD_PAIRS_MAX);
      out.push('Z', String(targets.length), String(chunk / 2));
      for (let j = at; j < at + chunk; j++) out.push(pairs[j]!);
      for (const key of targets) out.push(ref(key));
    }
  }
}

/**
 * The common run (messages each into the same indexes, in the same order: blocks of one member and
 * score over the same keys) as one entry, with no grouping; false, with nothing written, for any
 * other run.
 */
function encodeBlocks(ops: Array<Extract<WriteOp, { op: 'zadd' }>>, from: number, to: number, ref: (key: string) => string, out: string[]): boolean {
  const first = ops[from]!;
  let c = 1;
  while (from + c < to && ops[from + c]!.member === first.member && ops[from + c]!.score === first.score) c++;
  const blocks = (to - from) / c;
  if (!Number.isInteger(blocks) || blocks > ZADD_PAIRS_MAX) return false;
  for (let b = from + c; b < to; b += c) {
    const head = ops[b]!;
    for (let j = 0; j < c; j++) {
      const op = ops[b + j]!;
      if (op.key !== ops[from + j]!.key || op.member !== head.member || op.score !== head.score) return false;
    }
  }
  out.push('Z', String(c), String(blocks));
  for (let b = from; b < to; b += c) out.push(String(ops[b]!.score), ops[b]!.member);
  for (let j = 0; j < c; j++) out.push(ref(ops[from + j]!.key));
  return true;
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
