/** Wraps a rate-limiter-flexible limiter (memory or Redis) behind the port's RateLimiter. */
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RedisClient } from './redis-client.js';
import type { RateLimiter, RateLimitEntry, RateLimitOutcome, RateLimitRule } from './store-port.js';

const outcome = (res: RateLimiterRes, allowed: boolean): RateLimitOutcome => ({
  allowed,
  remaining: Math.max(0, res.remainingPoints),
  msBeforeNext: Math.max(0, res.msBeforeNext),
  consumed: res.consumedPoints,
});

/**
 * The limiter's own keys (without its prefix) that start with `keyPrefix`, at most `max` + 1 of
 * them (one more tells that there were more): the store adapter knows where they are kept.
 */
export type LimiterKeys = (keyPrefix: string, max: number) => Promise<string[]>;

export function toRateLimiter(
  limiter: RateLimiterAbstract,
  points: number,
  keysOf: LimiterKeys,
): RateLimiter {
  return {
    async consume(key, n = 1) {
      try {
        return outcome(await limiter.consume(key, n), true);
      } catch (err) {
        if (err instanceof RateLimiterRes) return outcome(err, false);
        throw err;
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      if (!res) return { allowed: true, remaining: points, msBeforeNext: 0, consumed: 0 };
      return outcome(res, res.consumedPoints <= points);
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async refund(key, n = 1) {
      await limiter.reward(key, n);
    },
    async list(keyPrefix, max) {
      const keys = await keysOf(keyPrefix, max);
      const entries: RateLimitEntry[] = [];
      for (const key of keys.slice(0, max)) {
        const res = await limiter.get(key);
        // a key that expired since it was listed is no longer counted
        if (res) entries.push({ key, ...outcome(res, res.consumedPoints <= points) });
      }
      return { entries, truncated: keys.length > max };
    },
  };
}

/** A limiter kept in this process's memory (the in-process stores), its keys under `prefix`. */
export function memoryRateLimiter(prefix: string, rule: RateLimitRule): RateLimiter {
  const limiter = new RateLimiterMemory({
    keyPrefix: prefix + rule.name,
    points: rule.points,
    duration: rule.durationS,
    blockDuration: rule.blockDurationS ?? 0,
  });
  // the limiter keeps its own map; its dump names every key it holds
  const keysOf = async (keyPrefix: string, max: number): Promise<string[]> => {
    const keys: string[] = [];
    for (const { key } of limiter.dump().storage) {
      if (String(key).startsWith(keyPrefix)) keys.push(String(key));
      if (keys.length > max) break;
    }
    return keys;
  };
  return toRateLimiter(limiter, rule.points, keysOf);
}

/**
 * A limiter kept in Redis (so limits hold across instances), its keys under `prefix`; `scan` lists
 * the stored keys under a full key prefix, batch by batch.
 */
export function redisRateLimiter(
  client: RedisClient,
  prefix: string,
  rule: RateLimitRule,
  scan: (fullPrefix: string) => AsyncIterable<{ keys: string[] }>,
): RateLimiter {
  const limiter = new RateLimiterRedis({
    storeClient: client,
    useRedisPackage: false,
    keyPrefix: prefix + rule.name,
    points: rule.points,
    duration: rule.durationS,
    blockDuration: rule.blockDurationS ?? 0,
    rejectIfRedisNotReady: true,
  });
  // the limiter names a key `<its prefix>:<key>`
  const keysOf = async (keyPrefix: string, max: number): Promise<string[]> => {
    const keys: string[] = [];
    for await (const batch of scan(limiter.getKey(keyPrefix))) {
      keys.push(...batch.keys.map((k) => limiter.parseKey(k)));
      if (keys.length > max) break;
    }
    return keys;
  };
  return toRateLimiter(limiter, rule.points, keysOf);
}
