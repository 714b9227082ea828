import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { storeKeys, type Store } from '../../src/store/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachStore('store contract', 'store', (factory) => {
  let store: Store;
  beforeEach(async () => {
    store = await factory.make();
  });
  afterEach(async () => {
    await store.close();
  });

  it('when a value is set with a TTL, then it reads back and expires', async () => {
    await store.set('a', 'one', { ttlMs: 80 });
    expect(await store.get('a')).toBe('one');
    expect(await store.pttl('a')).toBeGreaterThan(0);
    await sleep(150);
    expect(await store.get('a')).toBeNull();
    expect(await store.pttl('a')).toBe(-2);
  });

  it('when set with nx on an existing key, then it refuses and keeps the old value', async () => {
    expect(await store.set('n', '1', { nx: true })).toBe(true);
    expect(await store.set('n', '2', { nx: true })).toBe(false);
    expect(await store.get('n')).toBe('1');
    expect(await store.mget(['n', 'missing'])).toEqual(['1', null]);
  });

  it('when a counter is incremented with a TTL, then the TTL is set once at creation', async () => {
    expect(await store.incrby('c', 2, 10_000)).toBe(2);
    expect(await store.incrby('c', 3, 10_000)).toBe(5);
    const ttl = await store.pttl('c');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000);
  });

  it('when hashes are written, then hget, hgetall and hgetallMany read them', async () => {
    await store.hset('h1', { a: '1', b: '2' });
    await store.hset('h2', { c: '3' });
    expect(await store.hget('h1', 'b')).toBe('2');
    expect(await store.hgetall('h1')).toEqual({ a: '1', b: '2' });
    expect(await store.hgetallMany(['h1', 'h2', 'h3'])).toEqual([{ a: '1', b: '2' }, { c: '3' }, {}]);
  });

  it('when a sorted set is ranged by score, then order, reverse, offset and count hold', async () => {
    await store.atomic(
      [1, 2, 3, 4, 5].map((s) => ({ op: 'zadd' as const, key: 'z', score: s * 10, member: `m${s}` })),
    );
    expect((await store.zrangeByScore('z', 20, 40)).map((x) => x.member)).toEqual(['m2', 'm3', 'm4']);
    expect(
      (await store.zrangeByScore('z', -Infinity, Infinity, { rev: true, offset: 1, count: 2 })).map(
        (x) => x.member,
      ),
    ).toEqual(['m4', 'm3']);
    expect((await store.zrange('z', 0, 1, { rev: true })).map((x) => x.score)).toEqual([50, 40]);
    expect(await store.zcount('z', 15, 45)).toBe(3);
    expect(await store.zcard('z')).toBe(5);
    expect(await store.zscore('z', 'm3')).toBe(30);
    expect(await store.zrank('z', 'm3')).toBe(2);
    expect(await store.zrank('z', 'm1', { rev: true })).toBe(4);
    expect(await store.zrank('z', 'nope')).toBeNull();
  });

  it('when millisecond timestamps are used as scores, then they come back exactly', async () => {
    const ts = 1_795_000_000_123;
    await store.atomic([{ op: 'zadd', key: 'ts', score: ts, member: 'x' }]);
    expect(await store.zscore('ts', 'x')).toBe(ts);
  });

  it('when every guard holds, then all writes of an atomic change apply', async () => {
    const key = storeKeys.callSession('st-1', 'call-1');
    const r = await store.atomic(
      [
        { op: 'set', key, value: 'v1', ttlMs: 5_000 },
        { op: 'hset', key: 'x:{c:st-1:call-1}:pending', fields: { turn: '1' } },
        { op: 'sadd', key: 'x:{c:st-1:call-1}:set', member: 'a' },
        { op: 'incrby', key: 'x:{c:st-1:call-1}:cnt', by: 4 },
        { op: 'hincrby', key: 'x:{c:st-1:call-1}:hh', field: 'f', by: 2 },
      ],
      [{ key, absent: true }],
    );
    expect(r).toEqual({ ok: true });
    expect(await store.get(key)).toBe('v1');
    expect(await store.hgetall('x:{c:st-1:call-1}:pending')).toEqual({ turn: '1' });
    expect(await store.smembers('x:{c:st-1:call-1}:set')).toEqual(['a']);
    expect(await store.get('x:{c:st-1:call-1}:cnt')).toBe('4');
    expect(await store.hget('x:{c:st-1:call-1}:hh', 'f')).toBe('2');
  });

  it('when a guard fails, then nothing of the atomic change is written and the failed guard is named', async () => {
    await store.set('{g}lock', 'owner-a');
    const r = await store.atomic(
      [
        { op: 'set', key: '{g}x', value: '1' },
        { op: 'del', key: '{g}lock' },
      ],
      [
        { key: '{g}x', absent: true },
        { key: '{g}lock', equals: 'owner-b' },
      ],
    );
    expect(r).toEqual({ ok: false, failedGuard: 1 });
    expect(await store.get('{g}x')).toBeNull();
    expect(await store.get('{g}lock')).toBe('owner-a');
  });

  it('when an atomic change spans hash tags, then a store that says atomicAcrossSlots applies it whole or not at all, and only a Redis Cluster says it does not', async () => {
    expect(store.atomicAcrossSlots).toBe(factory.name !== 'redis-cluster');
    if (!store.atomicAcrossSlots) return;
    await store.set('{c:1}lock', 'owner-a');
    const ops = [
      { op: 'hset' as const, key: '{a:1}msg', fields: { id: 'm-1' } },
      { op: 'zadd' as const, key: '{a:1}index', score: 5, member: 'm-1' },
      { op: 'set' as const, key: '{c:1}session', value: 'committed' },
      { op: 'del' as const, key: '{c:1}lock' },
    ];
    const refused = await store.atomic(ops, [
      { key: '{c:1}lock', equals: 'owner-a' },
      { key: '{a:1}msg', hashField: 'id', absent: true },
      { key: '{a:1}app', present: true },
    ]);
    expect(refused).toEqual({ ok: false, failedGuard: 2 });
    expect([
      await store.hgetall('{a:1}msg'),
      await store.get('{c:1}session'),
      await store.get('{c:1}lock'),
    ]).toEqual([{}, null, 'owner-a']);
    await store.set('{a:1}app', 'x');
    expect(
      await store.atomic(ops, [
        { key: '{c:1}lock', equals: 'owner-a' },
        { key: '{a:1}msg', hashField: 'id', absent: true },
        { key: '{a:1}app', present: true },
      ]),
    ).toEqual({ ok: true });
    expect([
      await store.hgetall('{a:1}msg'),
      await store.zscore('{a:1}index', 'm-1'),
      await store.get('{c:1}session'),
      await store.get('{c:1}lock'),
    ]).toEqual([{ id: 'm-1' }, 5, 'committed', null]);
  });

  it('when a hash-field guard is used, then it protects a unique index', async () => {
    const first = await store.atomic(
      [{ op: 'hset', key: 'uniq', fields: { 'a@b.c': 'row1' } }],
      [{ key: 'uniq', hashField: 'a@b.c', absent: true }],
    );
    const second = await store.atomic(
      [{ op: 'hset', key: 'uniq', fields: { 'a@b.c': 'row2' } }],
      [{ key: 'uniq', hashField: 'a@b.c', absent: true }],
    );
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(false);
    expect(await store.hget('uniq', 'a@b.c')).toBe('row1');
  });

  it('when an atomic change uses every op and guard kind, then each applies in order', async () => {
    await store.set('{k}s', 'same');
    await store.atomic([
      { op: 'hset', key: '{k}h', fields: { keep: 'x', drop1: '1', drop2: '2' } },
      { op: 'sadd', key: '{k}set', member: 'gone' },
      { op: 'zadd', key: '{k}z', score: 1, member: 'gone' },
      { op: 'set', key: '{k}del', value: 'x' },
    ]);
    const guards = [
      { key: '{k}missing', absent: true as const },
      { key: '{k}s', equals: 'same' },
      { key: '{k}h', hashField: 'nothere', absent: true as const },
      { key: '{k}h', hashField: 'keep', equals: 'x' },
      { key: '{k}s', present: true as const },
    ];
    const r = await store.atomic(
      [
        { op: 'set', key: '{k}plain', value: 'a b=c,d' },
        { op: 'set', key: '{k}ttl', value: '1', ttlMs: 5_000 },
        { op: 'hdel', key: '{k}h', fields: ['drop1', 'drop2'] },
        { op: 'hincrby', key: '{k}h', field: 'n', by: -3 },
        { op: 'zadd', key: '{k}z', score: 1795441112345, member: 'ms' },
        { op: 'zrem', key: '{k}z', member: 'gone' },
        { op: 'sadd', key: '{k}set', member: 'here' },
        { op: 'srem', key: '{k}set', member: 'gone' },
        { op: 'incrby', key: '{k}n', by: 7 },
        { op: 'pexpire', key: '{k}plain', ttlMs: 60_000 },
        { op: 'del', key: '{k}del' },
      ],
      guards,
    );
    expect(r).toEqual({ ok: true });
    expect(await store.get('{k}plain')).toBe('a b=c,d');
    expect(await store.pttl('{k}plain')).toBeGreaterThan(50_000);
    expect(await store.pttl('{k}ttl')).toBeGreaterThan(0);
    expect(await store.hgetall('{k}h')).toEqual({ keep: 'x', n: '-3' });
    expect(await store.zrangeByScore('{k}z', -Infinity, Infinity)).toEqual([
      { member: 'ms', score: 1795441112345 },
    ]);
    expect(await store.smembers('{k}set')).toEqual(['here']);
    expect(await store.get('{k}n')).toBe('7');
    expect(await store.get('{k}del')).toBeNull();
    // each guard kind refuses on its own, naming itself
    const refusing = [
      { key: '{k}s', absent: true as const },
      { key: '{k}s', equals: 'other' },
      { key: '{k}h', hashField: 'keep', absent: true as const },
      { key: '{k}h', hashField: 'keep', equals: 'y' },
      { key: '{k}missing', present: true as const },
    ];
    for (const [i, bad] of refusing.entries()) {
      const g = guards.map((x, j) => (j === i ? bad : x));
      expect(await store.atomic([{ op: 'set', key: '{k}never', value: '1' }], g)).toEqual({
        ok: false,
        failedGuard: i,
      });
    }
    expect(await store.get('{k}never')).toBeNull();
  });

  it('when zadds repeat members across and within sorted sets, then each set keeps the last score each member got', async () => {
    const r = await store.atomic([
      { op: 'zadd', key: '{r}a', score: 5, member: 'm1' },
      { op: 'zadd', key: '{r}b', score: 5, member: 'm1' },
      { op: 'zadd', key: '{r}c', score: 5, member: 'm1' },
      { op: 'zadd', key: '{r}a', score: 6, member: 'm1' },
      { op: 'zadd', key: '{r}b', score: 6, member: 'm2' },
      { op: 'zadd', key: '{r}c', score: 6, member: 'm2' },
      { op: 'set', key: '{r}s', value: 'between' },
      { op: 'zadd', key: '{r}c', score: 7, member: 'm3' },
      { op: 'zadd', key: '{r}a', score: 7, member: 'm3' },
      { op: 'zadd', key: '{r}b', score: -0.25, member: 'm1' },
    ]);
    expect(r).toEqual({ ok: true });
    expect(await store.zrangeByScore('{r}a', -Infinity, Infinity)).toEqual([
      { member: 'm1', score: 6 },
      { member: 'm3', score: 7 },
    ]);
    expect(await store.zrangeByScore('{r}b', -Infinity, Infinity)).toEqual([
      { member: 'm1', score: -0.25 },
      { member: 'm2', score: 6 },
    ]);
    expect(await store.zrangeByScore('{r}c', -Infinity, Infinity)).toEqual([
      { member: 'm1', score: 5 },
      { member: 'm2', score: 6 },
      { member: 'm3', score: 7 },
    ]);
    expect(await store.get('{r}s')).toBe('between');
  });

  it('when a long run of zadds mixes keys, repeated members and odd members, then each set holds what the ops one by one leave', async () => {
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const members = ['m1', 'm2', 'x\u00001\u0000y', '1', '3:x', ''];
    const ops = Array.from({ length: 1_400 }, () => ({
      op: 'zadd' as const,
      key: `{run}${'abc'[next(3)]}`,
      score: next(50),
      member: next(4) === 0 ? `n${next(700)}` : members[next(members.length)]!,
    }));
    const expected = new Map<string, Map<string, number>>();
    for (const op of ops)
      (expected.get(op.key) ?? expected.set(op.key, new Map()).get(op.key)!).set(op.member, op.score);
    expect(
      await store.atomic([
        { op: 'set', key: '{run}before', value: '1' },
        ...ops,
        { op: 'set', key: '{run}after', value: '2' },
      ]),
    ).toEqual({ ok: true });
    for (const [key, want] of expected) {
      const got = await store.zrangeByScore(key, -Infinity, Infinity);
      expect(new Map(got.map((e) => [e.member, e.score]))).toEqual(want);
    }
    expect(await store.mget(['{run}before', '{run}after'])).toEqual(['1', '2']);
  });

  it('when atomic changes and lock scripts on different hash tags run at the same time, then each applies to its own keys', async () => {
    const tags = Array.from({ length: 24 }, (_, i) => `{par${i}}`);
    const changed = await Promise.all(
      tags.map((t, i) =>
        store.atomic(
          [
            { op: 'set', key: `${t}s`, value: String(i) },
            { op: 'zadd', key: `${t}z`, score: i, member: 'm' },
          ],
          [{ key: `${t}s`, absent: true }],
        ),
      ),
    );
    expect(changed).toEqual(tags.map(() => ({ ok: true })));
    expect(await store.mget(tags.map((t) => `${t}s`))).toEqual(tags.map((_, i) => String(i)));
    const locked = await Promise.all(
      tags.map((t) => store.lockAndRead(`${t}lock`, `tok${t}`, 5_000, `${t}s`)),
    );
    expect(locked).toEqual(tags.map((_, i) => ({ acquired: true, value: String(i) })));
    const written = await Promise.all(
      tags.map((t) => store.writeHeld(`${t}lock`, `tok${t}`, `${t}s`, 'saved', 5_000, { release: true })),
    );
    expect(written).toEqual(tags.map(() => true));
    expect(await store.mget(tags.map((t) => `${t}s`))).toEqual(tags.map(() => 'saved'));
  });

  it('when keys are deleted by prefix, then every key under it goes (across slots) and the rest stays, glob characters matching only themselves', async () => {
    const under = Array.from({ length: 1_500 }, (_, i) => `gone:${i}`);
    await store.bulk(under.map((key) => ({ op: 'set' as const, key, value: 'x' })));
    await store.hset('gone:h', { a: '1' });
    await store.atomic([{ op: 'zadd', key: 'gone:z', score: 1, member: 'm' }]);
    await store.set('kept:1', 'y');
    await store.set('gone-no-colon', 'y');
    await store.set('star*x:1', 'y');
    await store.set('starYx:1', 'y');
    expect(await store.deletePrefix('gone:')).toBe(1_502);
    expect(await store.mget(['gone:0', 'gone:1499', 'kept:1', 'gone-no-colon'])).toEqual([
      null,
      null,
      'y',
      'y',
    ]);
    expect(await store.hgetall('gone:h')).toEqual({});
    expect(await store.zcard('gone:z')).toBe(0);
    expect(await store.deletePrefix('star*x:')).toBe(1);
    expect(await store.mget(['star*x:1', 'starYx:1'])).toEqual([null, 'y']);
    expect(await store.deletePrefix('gone:')).toBe(0);
    await expect(store.deletePrefix('')).rejects.toThrow(/empty prefix/);
  });

  it('when an atomic change carries many thousands of fields and ops, then all of it is written', async () => {
    const ops = Array.from({ length: 40 }, (_, c) => ({
      op: 'hset' as const,
      key: '{big}h',
      fields: Object.fromEntries(
        Array.from({ length: 500 }, (_, i) => [`f${c * 500 + i}`, `v${c * 500 + i}`]),
      ),
    }));
    const zadds = Array.from({ length: 5_000 }, (_, i) => ({
      op: 'zadd' as const,
      key: '{big}z',
      score: i,
      member: `m${i}`,
    }));
    expect(await store.atomic([...ops, ...zadds], [{ key: '{big}h', absent: true }])).toEqual({ ok: true });
    const h = await store.hgetall('{big}h');
    expect(Object.keys(h)).toHaveLength(20_000);
    expect(h.f19999).toBe('v19999');
    expect(await store.zcard('{big}z')).toBe(5_000);
  });

  it('when 20 writers race on one guarded key, then exactly one wins', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.atomic([{ op: 'set', key: 'race', value: String(i) }], [{ key: 'race', absent: true }]),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('when slots are acquired beyond the maximum, then the extra is refused until one is released or expires', async () => {
    const now = Date.now();
    expect((await store.acquireSlot('lines', 'c1', now + 60_000, 2)).acquired).toBe(true);
    expect((await store.acquireSlot('lines', 'c2', now + 100, 2)).acquired).toBe(true);
    expect(await store.acquireSlot('lines', 'c3', now + 60_000, 2)).toEqual({ acquired: false, inUse: 2 });
    expect((await store.acquireSlot('lines', 'c1', now + 60_000, 2)).acquired).toBe(true);
    expect(await store.releaseSlot('lines', 'c1')).toBe(true);
    expect(await store.releaseSlot('lines', 'c1')).toBe(false);
    expect(await store.releaseSlot('lines', 'never-held')).toBe(false);
    expect((await store.acquireSlot('lines', 'c3', now + 60_000, 2)).acquired).toBe(true);
    await sleep(150);
    expect(await store.countSlots('lines')).toBe(1);
    expect((await store.acquireSlot('lines', 'c4', now + 60_000, 2)).acquired).toBe(true);
  });

  it('when due members are claimed, then each goes to one claimer only and comes due again when its lease ends', async () => {
    const key = storeKeys.idleCalls();
    for (let i = 0; i < 30; i++) await store.atomic([{ op: 'zadd', key, score: 1_000 + i, member: `c${i}` }]);
    await store.atomic([{ op: 'zadd', key, score: 9_000, member: 'later' }]);
    // five sweeps at once, ten each at most: every due member once, none twice, 'later' to nobody
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.claimDue(key, 5_000, 60_000, 10)));
    const all = claims.flat();
    expect(all).toHaveLength(30);
    expect(new Set(all).size).toBe(30);
    expect(await store.claimDue(key, 5_000, 60_000, 10)).toEqual([]);
    expect(await store.zscore(key, 'c0')).toBe(60_000);
    expect(await store.zscore(key, 'later')).toBe(9_000);
    // the lease ended: an unsettled claim is due again, lowest score first
    await store.atomic([{ op: 'zrem', key, member: 'c1' }]);
    expect(await store.claimDue(key, 60_000, 120_000, 3)).toEqual(['later', 'c0', 'c10']);
    expect(await store.claimDue('nothing-here', 60_000, 120_000, 3)).toEqual([]);
  });

  it('when a rate limit is consumed past its points, then it refuses with the time to wait', async () => {
    const rl = store.rateLimiter({ name: 'contract', points: 3, durationS: 60 });
    for (let i = 0; i < 3; i++) expect((await rl.consume('k')).allowed).toBe(true);
    const refused = await rl.consume('k');
    expect(refused.allowed).toBe(false);
    expect(refused.msBeforeNext).toBeGreaterThan(0);
    expect((await rl.consume('other')).allowed).toBe(true);
    await rl.reset('k');
    expect((await rl.consume('k')).allowed).toBe(true);
  });

  it('when a rate limiter lists its keys, then it shows only its own under the prefix asked, with their state, and at most as many as asked', async () => {
    const rl = store.rateLimiter({ name: 'listed', points: 2, durationS: 60, blockDurationS: 30 });
    const neighbour = store.rateLimiter({ name: 'listed-too', points: 2, durationS: 60 });
    for (let i = 0; i < 3; i++) await rl.consume('+1555|a|x');
    await rl.consume('+1555|b|y');
    await rl.consume('+4930|a|z');
    await neighbour.consume('+1555|c|w');
    const under = (await rl.list('+1555|', 10)).entries.sort((a, b) => a.key.localeCompare(b.key));
    expect(under.map((e) => [e.key, e.allowed, e.consumed])).toEqual([
      ['+1555|a|x', false, 3],
      ['+1555|b|y', true, 1],
    ]);
    expect(under[0]!.msBeforeNext).toBeGreaterThan(20_000);
    const all = await rl.list('', 10);
    expect(all.entries.map((e) => e.key).sort()).toEqual(['+1555|a|x', '+1555|b|y', '+4930|a|z']);
    expect(all.truncated).toBe(false);
    const some = await rl.list('', 2);
    expect(some.entries).toHaveLength(2);
    expect(some.truncated).toBe(true);
    await rl.reset('+1555|a|x');
    expect((await rl.list('+1555|a', 10)).entries).toEqual([]);
  });

  it('when bulk writes are sent, then they all land', async () => {
    await store.bulk(
      Array.from({ length: 50 }, (_, i) => ({ op: 'zadd' as const, key: 'bulk', score: i, member: `m${i}` })),
    );
    expect(await store.zcard('bulk')).toBe(50);
  });

  it('when keys are deleted, then del counts them and memoryUsage sees nothing', async () => {
    await store.set('d1', 'x');
    await store.hset('d2', { a: 'b' });
    expect(await store.memoryUsage(['d1', 'd2'])).toBeGreaterThan(0);
    expect(await store.del(['d1', 'd2', 'd3'])).toBe(2);
    expect(await store.exists('d1')).toBe(false);
    expect(await store.memoryUsage(['d1', 'd2'])).toBe(0);
  });

  it('when a lock is taken with lockAndRead, then the value comes back and a second taker is refused', async () => {
    await store.set('{k}value', 'session-json');
    expect(await store.lockAndRead('{k}lock', 't1', 5_000, '{k}value')).toEqual({
      acquired: true,
      value: 'session-json',
    });
    expect(await store.lockAndRead('{k}lock', 't2', 5_000, '{k}value')).toEqual({
      acquired: false,
      value: 'session-json',
    });
    expect(await store.get('{k}lock')).toBe('t1');
    expect(await store.lockAndRead('{k}lock2', 't3', 5_000, '{k}missing')).toEqual({
      acquired: true,
      value: null,
    });
  });

  it('when lockAndRead takes the lock and finds no value, then it creates the one given; otherwise it creates nothing', async () => {
    expect(
      await store.lockAndRead('{n}lock', 't1', 5_000, '{n}value', { value: 'fresh', ttlMs: 60_000 }),
    ).toEqual({ acquired: true, value: 'fresh', created: true });
    expect(await store.get('{n}value')).toBe('fresh');
    expect(await store.pttl('{n}value')).toBeGreaterThan(50_000);
    // the lock is held: another taker gets the stored value and creates nothing
    expect(
      await store.lockAndRead('{n}lock', 't2', 5_000, '{n}value', { value: 'other', ttlMs: 60_000 }),
    ).toEqual({ acquired: false, value: 'fresh' });
    await store.del(['{n}lock']);
    expect(
      await store.lockAndRead('{n}lock', 't3', 5_000, '{n}value', { value: 'other', ttlMs: 60_000 }),
    ).toEqual({ acquired: true, value: 'fresh' });
    // not taken, value missing: nothing is created
    expect(await store.lockAndRead('{n}lock', 't4', 5_000, '{n}gone', { value: 'x', ttlMs: 60_000 })).toEqual(
      { acquired: false, value: null },
    );
    expect(await store.get('{n}gone')).toBeNull();
  });

  it('when a value is written under a held lock, then it lands and the lock is extended or released; under a lost lock nothing lands', async () => {
    await store.set('{w}lock', 'owner', { ttlMs: 1_000 });
    expect(await store.writeHeld('{w}lock', 'owner', '{w}value', 'v1', 60_000, { extendMs: 30_000 })).toBe(
      true,
    );
    expect(await store.get('{w}value')).toBe('v1');
    expect(await store.pttl('{w}lock')).toBeGreaterThan(10_000);
    expect(await store.pttl('{w}value')).toBeGreaterThan(50_000);
    expect(
      await store.writeHeld('{w}lock', 'intruder', '{w}value', 'stolen', 60_000, { release: true }),
    ).toBe(false);
    expect(await store.get('{w}value')).toBe('v1');
    expect(await store.get('{w}lock')).toBe('owner');
    expect(await store.writeHeld('{w}lock', 'owner', '{w}value', 'v2', 60_000, { release: true })).toBe(true);
    expect(await store.get('{w}value')).toBe('v2');
    expect(await store.get('{w}lock')).toBeNull();
    expect(await store.writeHeld('{w}lock', 'owner', '{w}value', 'v3', 60_000, { release: true })).toBe(
      false,
    );
    expect(await store.get('{w}value')).toBe('v2');
  });

  it('when pinged, then it answers true', async () => {
    expect(await store.ping()).toBe(true);
  });

  it('when entries are pushed to a capped list in an atomic step, then only the newest stay', async () => {
    const key = storeKeys.callTrace('st-1', 'c-list');
    for (let i = 1; i <= 5; i++)
      await store.atomic([
        { op: 'rpush', key, value: `e${i}`, keepLast: 3 },
        { op: 'pexpire', key, ttlMs: 60_000 },
      ]);
    expect(await store.lrange(key, 0, -1)).toEqual(['e3', 'e4', 'e5']);
    expect(await store.lrange(key, -1, -1)).toEqual(['e5']);
    expect(await store.pttl(key)).toBeGreaterThan(0);
  });

  it('when a range of scores is removed, then members outside it stay', async () => {
    const key = storeKeys.callIndex('st-1');
    await store.atomic([
      { op: 'zadd', key, score: 1, member: 'a' },
      { op: 'zadd', key, score: 5, member: 'b' },
      { op: 'zremrangebyscore', key, min: -Infinity, max: 2 },
    ]);
    expect(await store.zrange(key, 0, -1)).toEqual([{ member: 'b', score: 5 }]);
  });

  it('when entries are added to a stream, then a reader gets those after an id and waits for the next', async () => {
    const key = storeKeys.callFeed('st-1');
    await store.atomic([{ op: 'xadd', key, fields: { e: '1' }, maxLen: 100 }]);
    const first = await store.lastStreamId(key);
    expect(first).toMatch(/^\d+-\d+$/);
    const reader = await store.streamReader();
    try {
      const waiting = reader.read(key, first!, 10, 5_000);
      await sleep(50);
      await store.atomic([{ op: 'xadd', key, fields: { e: '2' }, maxLen: 100 }]);
      const got = await waiting;
      expect(got.map((x) => x.fields.e)).toEqual(['2']);
      expect(await reader.read(key, '0-0', 10, 10)).toHaveLength(2);
      expect(await reader.read(key, got[0]!.id, 10, 20)).toEqual([]);
    } finally {
      await reader.close();
    }
  });
});
