/**
 * Waiting for a lock without polling (issue 39, item 3): a waiter is woken by the release itself
 * (commitTurn, writeHeld with release, releaseLock), answers at once when the lock is free, and
 * gives up after its timeout when nothing releases it.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import type { Store } from '../../src/store/index.js';

const LOCK = 'lock:{c:w1}';
const SESSION = 'session:{c:w1}';
const LONG = 30_000;

describeEachStore('waitForRelease', 'store', (factory) => {
  let store: Store;
  beforeEach(async () => {
    store = await factory.make();
  });
  afterEach(async () => {
    await store.close();
  });

  const held = () => store.set(LOCK, 'tok', { ttlMs: 60_000 });

  it('when the lock is not held, then the wait answers released at once', async () => {
    expect(await store.waitForRelease(LOCK, LONG)).toBe(true);
  });

  it('when the holder commits its turn, then a waiter is woken', async () => {
    await held();
    const waiting = store.waitForRelease(LOCK, LONG);
    await new Promise((r) => setTimeout(r, 50));
    expect(
      await store.commitTurn({
        lockKey: LOCK,
        token: 'tok',
        sessionKey: SESSION,
        session: '{}',
        ttlMs: 60_000,
      }),
    ).toBe('ok');
    expect(await waiting).toBe(true);
  });

  it('when the holder saves and releases, or releases alone, then every waiter is woken', async () => {
    await held();
    const a = store.waitForRelease(LOCK, LONG);
    const b = store.waitForRelease(LOCK, LONG);
    await new Promise((r) => setTimeout(r, 50));
    expect(await store.writeHeld(LOCK, 'tok', SESSION, '{}', 60_000, { release: true })).toBe(true);
    expect(await Promise.all([a, b])).toEqual([true, true]);
    await held();
    const c = store.waitForRelease(LOCK, LONG);
    await new Promise((r) => setTimeout(r, 50));
    expect(await store.releaseLock(LOCK, 'other')).toBe(false);
    expect(await store.releaseLock(LOCK, 'tok')).toBe(true);
    expect(await c).toBe(true);
  });

  it('when nothing releases the lock, then the wait ends after its timeout unreleased', async () => {
    await held();
    expect(await store.waitForRelease(LOCK, 60)).toBe(false);
    expect(await store.get(LOCK)).toBe('tok');
  });
});
