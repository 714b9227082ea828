/** Redis housekeeping for the benchmarks: every key a run writes lives under its own prefix. */
import { Redis } from 'ioredis';

export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3_000 });
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

/** Calls `each` with batches of the keys matching `pattern` (SCAN, never KEYS). */
export async function scanKeys(
  redis: Redis,
  pattern: string,
  each: (keys: string[]) => Promise<void> | void,
): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 5000);
    cursor = next;
    if (keys.length) await each(keys);
  } while (cursor !== '0');
}

/** Removes every key under `prefix` (and nothing else); answers how many were removed. */
export async function removePrefix(redis: Redis, prefix: string): Promise<number> {
  if (prefix.length < 8 || !prefix.endsWith(':'))
    throw new Error(`refusing to clean a short or open prefix: "${prefix}"`);
  let removed = 0;
  await scanKeys(redis, `${prefix}*`, async (keys) => {
    removed += await redis.unlink(...keys);
  });
  return removed;
}

/** Redis's own used_memory, bytes. */
export async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
}
