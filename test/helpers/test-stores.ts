/**
 * Real stores for tests: the memory adapter, and the Redis adapter on a real Redis with a random
 * key prefix per test file (so files run in parallel without seeing each other's keys).
 */
import { inject, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MemoryStore, RedisStore, type Store } from '../../src/store/index.js';

export const redisAvailable = (): boolean => inject('redisAvailable');
export const redisUrl = (): string => inject('redisUrl');

export const testPrefix = (): string => `test:${randomUUID().slice(0, 8)}:`;

export async function makeRedisStore(prefix = testPrefix()): Promise<RedisStore> {
  return RedisStore.connect({ url: redisUrl(), prefix });
}

export interface StoreFactory {
  name: 'memory' | 'redis';
  available: boolean;
  make: () => Promise<Store>;
}

/** The adapters every contract and end-to-end suite runs against. */
export function storeFactories(): StoreFactory[] {
  return [
    { name: 'memory', available: true, make: async () => new MemoryStore(testPrefix()) },
    { name: 'redis', available: redisAvailable(), make: () => makeRedisStore() },
  ];
}

/** describe() for each adapter; Redis suites are skipped (loudly, by global setup) without Redis. */
export function describeEachStore(title: string, body: (factory: StoreFactory) => void): void {
  for (const f of storeFactories()) {
    describe.skipIf(!f.available)(`${title} [${f.name}]`, () => body(f));
  }
}
