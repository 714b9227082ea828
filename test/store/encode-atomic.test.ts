/**
 * The flat encoding of atomic changes (encode-atomic.ts), read back by a decoder written from the
 * format redis-scripts.ts states: a run of zadds must leave every sorted set as the ops applied one
 * by one would. (The store contract suite runs the same changes through the real script on Redis.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeAtomic, ZADD_PAIRS_MAX } from '../../src/store/encode-atomic.js';
import type { WriteOp } from '../../src/store/index.js';

type Zadd = Extract<WriteOp, { op: 'zadd' }>;
type Sets = Map<string, Map<string, string>>;

/** The sorted sets after the ops one by one (member → score as sent). */
function applied(ops: Zadd[]): Sets {
  const sets: Sets = new Map();
  for (const op of ops) {
    const set = sets.get(op.key) ?? new Map<string, string>();
    set.set(op.member, String(op.score));
    sets.set(op.key, set);
  }
  return sets;
}

/** The sorted sets the script builds from the encoding (only z and Z entries; no guards). */
function decoded(keys: string[], args: string[]): { sets: Sets; zaddCalls: number } {
  const sets: Sets = new Map();
  let zaddCalls = 0;
  const add = (key: string, pairs: string[]) => {
    zaddCalls++;
    const set = sets.get(key) ?? new Map<string, string>();
    for (let j = 0; j < pairs.length; j += 2) set.set(pairs[j + 1]!, pairs[j]!);
    sets.set(key, set);
  };
  expect(args[0]).toBe('0');
  let i = 1;
  while (i < args.length) {
    const code = args[i];
    if (code === 'z') {
      add(keys[Number(args[i + 1]) - 1]!, [args[i + 2]!, args[i + 3]!]);
      i += 4;
    } else if (code === 'Z') {
      const c = Number(args[i + 1]);
      const p = Number(args[i + 2]);
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(ZADD_PAIRS_MAX);
      const pairs = args.slice(i + 3, i + 3 + 2 * p);
      for (const k of args.slice(i + 3 + 2 * p, i + 3 + 2 * p + c)) add(keys[Number(k) - 1]!, pairs);
      i += 3 + 2 * p + c;
    } else throw new Error(`unexpected entry ${code} at ${i}`);
  }
  return { sets, zaddCalls };
}

const encode = (ops: WriteOp[]) => encodeAtomic(ops, [], (k) => `p:${k}`);
const z = (key: string, score: number, member: string): Zadd => ({ op: 'zadd', key, score, member });
const unprefixed = (sets: Sets): Sets => new Map([...sets].map(([k, v]) => [k.slice(2), v]));

describe('atomic encoding', () => {
  it("when a turn's two messages go into the same five indexes, then they travel as one entry of two pairs sent to five keys", () => {
    const indexes = ['all', 'u:user', 'u:call', 'u:from', 's:session'];
    const ops: Zadd[] = [];
    for (const [score, member] of [[100, 'ms-in'], [101, 'ms-out']] as const) for (const key of indexes) ops.push(z(key, score, member));
    const { keys, args } = encode(ops);
    expect(keys).toEqual(indexes.map((k) => `p:${k}`));
    expect(args).toEqual(['0', 'Z', '5', '2', '100', 'ms-in', '101', 'ms-out', '1', '2', '3', '4', '5']);
    const { sets, zaddCalls } = decoded(keys, args);
    expect(zaddCalls).toBe(5);
    expect(unprefixed(sets)).toEqual(applied(ops));
  });

  it('when keys of a run receive different members, then keys with the same pairs share an entry and each keeps its own', () => {
    const ops = [z('a', 5, 'm1'), z('b', 5, 'm1'), z('c', 5, 'm1'), z('a', 6, 'm1'), z('b', 6, 'm2'), z('c', 6, 'm2')];
    const { keys, args } = encode(ops);
    expect(args).toEqual(['0', 'Z', '1', '2', '5', 'm1', '6', 'm1', '1', 'Z', '2', '2', '5', 'm1', '6', 'm2', '2', '3']);
    expect(unprefixed(decoded(keys, args).sets)).toEqual(applied(ops));
  });

  it('when members hold the separator characters of a grouping key, then lists that would read alike are not merged', () => {
    // without lengths, a's pairs and b's would read alike joined by NUL, e's and f's joined by nothing
    const ops = [z('a', 1, 'x\u00001\u0000y'), z('b', 1, 'x'), z('b', 1, 'y'), z('c', 1, '3:x'), z('d', 1, '3'), z('e', 1, '1x'), z('f', 11, 'x')];
    for (const run of [ops, [...ops, ...Array.from({ length: 40 }, (_, i) => z(`pad${i}`, 1, 'p'))]]) {
      const { keys, args } = encode(run);
      expect(unprefixed(decoded(keys, args).sets)).toEqual(applied(run));
    }
  });

  it('when a run adds more pairs to a key than one entry may carry, then they are split into entries in order', () => {
    const ops: Zadd[] = Array.from({ length: 2 * ZADD_PAIRS_MAX + 7 }, (_, i) => z('big', i, `m${i % (ZADD_PAIRS_MAX + 3)}`));
    const { keys, args } = encode(ops);
    expect(args.filter((a) => a === 'Z').length).toBe(3);
    expect(unprefixed(decoded(keys, args).sets)).toEqual(applied(ops));
  });

  it('when a run is shaped as messages into the same indexes, perturbed or not, then the sets it builds are those of the ops one by one', () => {
    const member = fc.oneof(fc.constantFrom('m1', 'm2', '1', ''), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 5 }),
        fc.array(fc.record({ score: fc.integer({ min: 0, max: 3 }), member }), { minLength: 1, maxLength: 4 }),
        fc.option(fc.record({ at: fc.nat(), key: fc.constantFrom('a', 'e'), score: fc.integer({ min: 0, max: 3 }), member })),
        (keys, blocks, change) => {
          const ops: Zadd[] = blocks.flatMap((b) => keys.map((key) => z(key, b.score, b.member)));
          if (change) ops[change.at % ops.length] = z(change.key, change.score, change.member);
          const { keys: sent, args } = encode(ops);
          expect(unprefixed(decoded(sent, args).sets)).toEqual(applied(ops));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('when any run of zadds is encoded, short or long, then the sets it builds are those of the ops one by one', () => {
    const zadd = fc.record({
      op: fc.constant('zadd' as const),
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      score: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(1795441112345)),
      member: fc.oneof(fc.constantFrom('m1', 'm2', '1', '2:m', ''), fc.string({ maxLength: 6 })),
    });
    fc.assert(
      fc.property(fc.array(zadd, { minLength: 1, maxLength: 120 }), (ops) => {
        const { keys, args } = encode(ops);
        expect(unprefixed(decoded(keys, args).sets)).toEqual(applied(ops));
      }),
      { numRuns: 400 },
    );
  });
});
