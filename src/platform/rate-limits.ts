/**
 * The platform's rolling rate limits: bot APIs 60/min and 1800/h per bot; data-table APIs 600/min
 * and 18000/h per account+table. Counted through the RateLimiterFactory port (the store's), so they
 * hold across instances. `check` consumes one point from each window and throws 429 with
 * Retry-After.
 */
import { AppError } from './app-error.js';
import type { Metrics } from './metrics.js';
import type { RateLimiter, RateLimiterFactory } from './rate-limiter.js';

export interface RateLimitGate {
  check(key: string): Promise<void>;
}

export function createRateLimitGate(
  limiters: RateLimiterFactory,
  name: string,
  perMinute: number,
  perHour: number,
  metrics?: Metrics,
): RateLimitGate {
  const windows: RateLimiter[] = [
    limiters({ name: `${name}-min`, points: perMinute, durationS: 60 }),
    limiters({ name: `${name}-hour`, points: perHour, durationS: 3600 }),
  ];
  return {
    async check(key) {
      for (const w of windows) {
        const r = await w.consume(key);
        if (!r.allowed) {
          metrics?.rateLimited.inc({ limiter: name });
          throw AppError.rateLimited(r.msBeforeNext / 1000);
        }
      }
    },
  };
}

export const RATE_LIMITS = {
  botApi: { name: 'bot-api', perMinute: 60, perHour: 1800 },
  tables: { name: 'tables', perMinute: 600, perHour: 18000 },
} as const;
