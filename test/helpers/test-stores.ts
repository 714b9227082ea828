/**
 * Real stores for tests: the memory adapter, the embedded SQLite adapter (a temp data directory), the Redis adapter on a real Redis, and the Redis
 * adapter on a local three-master Redis Cluster (started by global setup), each with a random key
 * prefix per store under the run's prefix (so files run in parallel without seeing each other's
 * keys, and the run can remove its keys at the end).
 */
import { inject, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore, MemoryStore, RedisStore, type Store } from '../../src/store/index.js';

export const redisAvailable = (): boolean => inject('redisAvailable');
export const redisUrl = (): string => inject('redisUrl');
/** Seed URLs of the local cluster ('' when it is not running). */
export const redisClusterUrl = (): string => inject('redisClusterUrl');

/** A fresh prefix under the run's own (global-setup.ts removes the run's keys when it ends). */
export const testPrefix = (): string => `${inject('testRunPrefix')}${randomUUID().slice(0, 8)}:`;

export async function makeRedisStore(prefix = testPrefix()): Promise<RedisStore> {
  return RedisStore.connect({ url: redisUrl(), prefix });
}

export async function makeRedisClusterStore(prefix = testPrefix()): Promise<RedisStore> {
  return RedisStore.connect({ url: redisClusterUrl(), cluster: true, prefix });
}

/**
 * The embedded store (SQLite on its worker thread, as the service runs it) in a fresh data
 * directory of its own, under the system's temp dir.
 */
export async function makeEmbeddedStore(
  dir = mkdtempSync(join(tmpdir(), 'ivr-data-')),
): Promise<EmbeddedStore> {
  return EmbeddedStore.open({ dir, prefix: testPrefix() });
}

export interface StoreFactory {
  name: 'memory' | 'embedded' | 'redis' | 'redis-cluster';
  available: boolean;
  make: () => Promise<Store>;
}

/** The four adapters, each with whether it can run here. */
export function storeFactories(): StoreFactory[] {
  return [
    { name: 'memory', available: true, make: async () => new MemoryStore(testPrefix()) },
    { name: 'embedded', available: true, make: () => makeEmbeddedStore() },
    { name: 'redis', available: redisAvailable(), make: () => makeRedisStore() },
    { name: 'redis-cluster', available: redisClusterUrl() !== '', make: () => makeRedisClusterStore() },
  ];
}

/**
 * The store policy: which adapters a suite runs on, by what the suite is about.
 * - `'store'`: all four (memory, embedded, Redis, Redis Cluster). For suites about what a store
 *   does, where the adapters differ: the port's contract, atomic and guarded writes, a turn's
 *   commit, locks, streams, batches, durability across restarts, and a whole call's keys (their
 *   slots on the cluster).
 * - `'api'`: memory and Redis. For suites about the HTTP API, calls, the console and security,
 *   which reach the store only through its port: the `'store'` suites prove every adapter keeps the
 *   port's promises, so the in-process adapter and one real one prove the rest. Running them four
 *   times would cost minutes of CI for nothing more.
 * A suite that is about a difference between adapters names them itself (e.g. a two-instance sweep
 * on Redis and the cluster).
 */
export type StoreScope = 'store' | 'api';

const SCOPES: Record<StoreScope, ReadonlyArray<StoreFactory['name']>> = {
  store: ['memory', 'embedded', 'redis', 'redis-cluster'],
  api: ['memory', 'redis'],
};

/** The adapters a suite of this scope runs on (see StoreScope). */
export function storesFor(scope: StoreScope): StoreFactory[] {
  return storeFactories().filter((f) => SCOPES[scope].includes(f.name));
}

/**
 * describe() for each adapter of the scope (see StoreScope); Redis suites are skipped (loudly, by
 * global setup) without Redis.
 */
export function describeEachStore(
  title: string,
  scope: StoreScope,
  body: (factory: StoreFactory) => void,
): void {
  for (const f of storesFor(scope)) {
    describe.skipIf(!f.available)(`${title} [${f.name}]`, () => body(f));
  }
}
