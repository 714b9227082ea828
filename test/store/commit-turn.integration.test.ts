/**
 * A turn's commit as one named operation (issue 39, item 2: commit-turn.lua on Redis, one step in
 * memory and SQLite): the session, the lock's release, the idle index and the history's writes land
 * together while the lock holds the token; a lost lock or a failed history guard writes nothing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import type { Store, TurnCommit } from '../../src/store/index.js';

// one hash tag for every key: the operation runs on a Redis Cluster too
const LOCK = 'lock:{c:t1}';
const SESSION = 'session:{c:t1}';
const IDLE = 'idle:{c:t1}';
const MESSAGE = 'message:{c:t1}:m1';
const INDEX = 'index:{c:t1}';

const commitOf = (token: string, extra?: TurnCommit['extra'], at: number | null = 1_000): TurnCommit => ({
  lockKey: LOCK,
  token,
  sessionKey: SESSION,
  session: '{"turn":1}',
  ttlMs: 60_000,
  idle: { key: IDLE, member: 'app:t1', at },
  ...(extra ? { extra } : {}),
});
const history = (): NonNullable<TurnCommit['extra']> => ({
  ops: [
    { op: 'set', key: MESSAGE, value: 'hello' },
    { op: 'zadd', key: INDEX, score: 5, member: 'm1' },
  ],
  guards: [{ key: MESSAGE, absent: true }],
});

describeEachStore('commitTurn', 'store', (factory) => {
  let store: Store;
  beforeEach(async () => {
    store = await factory.make();
    await store.set(LOCK, 'tok', { ttlMs: 60_000 });
    await store.set(SESSION, '{"turn":0}', { ttlMs: 60_000 });
  });
  afterEach(async () => {
    await store.close();
  });

  it('when the lock holds the token, then the history, the session, the lock release and the idle entry land together', async () => {
    expect(await store.commitTurn(commitOf('tok', history()))).toBe('ok');
    expect(await store.get(SESSION)).toBe('{"turn":1}');
    expect(await store.pttl(SESSION)).toBeGreaterThan(0);
    expect(await store.exists(LOCK)).toBe(false);
    expect(await store.zscore(IDLE, 'app:t1')).toBe(1_000);
    expect(await store.get(MESSAGE)).toBe('hello');
    expect(await store.zscore(INDEX, 'm1')).toBe(5);
  });

  it('when the lock holds another token, then it answers lost and writes nothing', async () => {
    expect(await store.commitTurn(commitOf('other', history()))).toBe('lost');
    expect(await store.get(SESSION)).toBe('{"turn":0}');
    expect(await store.get(LOCK)).toBe('tok');
    expect(await store.get(MESSAGE)).toBeNull();
    expect(await store.zcard(IDLE)).toBe(0);
  });

  it('when a history guard fails, then it answers refused and writes nothing', async () => {
    await store.set(MESSAGE, 'earlier');
    expect(await store.commitTurn(commitOf('tok', history()))).toBe('refused');
    expect(await store.get(SESSION)).toBe('{"turn":0}');
    expect(await store.get(LOCK)).toBe('tok');
    expect(await store.get(MESSAGE)).toBe('earlier');
    expect(await store.zcard(INDEX)).toBe(0);
  });

  it('when the call ended, then its idle entry is taken out', async () => {
    await store.atomic([{ op: 'zadd', key: IDLE, score: 10, member: 'app:t1' }]);
    expect(await store.commitTurn(commitOf('tok', undefined, null))).toBe('ok');
    expect(await store.zscore(IDLE, 'app:t1')).toBeNull();
    expect(await store.get(SESSION)).toBe('{"turn":1}');
  });
});
