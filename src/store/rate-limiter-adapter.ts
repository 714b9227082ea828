/** Wraps a rate-limiter-flexible limiter (memory or Redis) behind the port's RateLimiter. */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimiter, RateLimitOutcome } from './store-port.js';

const outcome = (res: RateLimiterRes, allowed: boolean): RateLimitOutcome => ({
  allowed,
  remaining: Math.max(0, res.remainingPoints),
  msBeforeNext: Math.max(0, res.msBeforeNext),
});

export function toRateLimiter(limiter: RateLimiterAbstract, points: number): RateLimiter {
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
      if (!res) return { allowed: true, remaining: points, msBeforeNext: 0 };
      return outcome(res, res.consumedPoints <= points);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
