/**
 * The port the platform counts rolling rate limits through. The store adapters provide it (keys
 * named and kept by the store, so limits hold across instances); compose.ts wires it.
 */

export interface RateLimitRule {
  /** Distinguishes limiters, e.g. "bot-api-min"; the adapter turns it into its key prefix. */
  name: string;
  points: number;
  durationS: number;
  /** Block for this long once exceeded (defaults to the rest of the window). */
  blockDurationS?: number;
}

export interface RateLimitOutcome {
  allowed: boolean;
  remaining: number;
  /** ms until the next point is available (Retry-After when refused). */
  msBeforeNext: number;
}

export interface RateLimiter {
  consume(key: string, points?: number): Promise<RateLimitOutcome>;
  /** Current state without consuming. */
  peek(key: string): Promise<RateLimitOutcome>;
  reset(key: string): Promise<void>;
}

/** Makes the limiter of a rule. */
export type RateLimiterFactory = (rule: RateLimitRule) => RateLimiter;
