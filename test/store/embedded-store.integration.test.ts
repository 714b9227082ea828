import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION } from '../../src/store/sqlite-database.js';
import { EmbeddedStore, NewerDataError, isStoreUnavailable } from '../../src/store/index.js';

describe('the embedded store on its worker thread', () => {
  const dirs: string[] = [];
  const stores: EmbeddedStore[] = [];
  const open = async (dir = mkdtempSync(join(tmpdir(), 'ivr-embedded-'))) => {
    dirs.push(dir);
    const store = await EmbeddedStore.open({ dir, prefix: 't:' });
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('when writes are made without waiting, then the reads after them see them, in order', async () => {
    const store = await open();
    const writes = Array.from({ length: 50 }, (_, i) => store.set('k', String(i)));
    const read = store.get('k');
    const counted = [store.incrby('n', 1), store.incrby('n', 1), store.get('n')];
    expect(await read).toBe('49');
    expect(await Promise.all(counted)).toEqual([1, 2, '2']);
    expect(await Promise.all(writes)).toEqual(Array(50).fill(true));
  });

  it('when an entry is added while a reader waits, then the reader wakes with it long before its block time', async () => {
    const store = await open();
    const reader = await store.streamReader();
    const waiting = reader.read('feed', '$', 10, 60_000);
    await new Promise((r) => setTimeout(r, 100));
    await store.atomic([{ op: 'xadd', key: 'feed', fields: { a: '1' }, maxLen: 100 }]);
    const entries = await waiting; // the test's own timeout (far below 60 s) fails a missed wake
    expect(entries.map((e) => e.fields)).toEqual([{ a: '1' }]);
    await reader.close();
  }, 10_000);

  it('when a call fails in the worker, then its caller gets the error and later calls still work', async () => {
    const store = await open();
    await store.hset('h', { f: 'v' });
    await expect(store.get('h')).rejects.toThrow(/WRONGTYPE/);
    await expect(store.deletePrefix('')).rejects.toThrow(TypeError);
    expect(await store.set('s', 'ok')).toBe(true);
    expect(await store.get('s')).toBe('ok');
  });

  it('when the directory was written by a newer service, then opening it fails with NewerDataError', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivr-embedded-'));
    dirs.push(dir);
    const db = await openDatabase(dir);
    db.db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    await db.close();
    await expect(EmbeddedStore.open({ dir })).rejects.toThrow(NewerDataError);
  });

  it('when its thread dies, then every call fails as an outage and the owner is told once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivr-embedded-'));
    dirs.push(dir);
    const failures: Error[] = [];
    const store = await EmbeddedStore.open({ dir, onFailure: (err) => failures.push(err) });
    stores.push(store);
    await store.set('k', 'v');
    // no public way to crash it: the thread is ended from outside, as a fatal error in it would
    await (store as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const err = await store.get('k').catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(true);
    expect(await store.ping()).toBe(false);
    expect(failures).toHaveLength(1);
  });

  it('when the store is closed, then what it acknowledged is kept and later calls are refused as an outage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivr-embedded-'));
    const store = await open(dir);
    await store.set('kept', 'yes');
    await store.close();
    const err = await store.get('kept').catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(true);
    expect(await store.ping()).toBe(false);
    const again = await open(dir);
    expect(await again.get('kept')).toBe('yes');
  });
});
