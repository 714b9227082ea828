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
  /** Points counted in the window (or when the key was blocked). */
  consumed: number;
}

/** One key a limiter counts, with its state. */
export interface RateLimitEntry extends RateLimitOutcome {
  key: string;
}

export interface RateLimiter {
  consume(key: string, points?: number): Promise<RateLimitOutcome>;
  /** Current state without consuming. */
  peek(key: string): Promise<RateLimitOutcome>;
  reset(key: string): Promise<void>;
  /** Gives `points` (default 1) back to the key's window: a consumed attempt that turned out right. */
  refund(key: string, points?: number): Promise<void>;
  /**
   * The keys this limiter counts now whose names start with `keyPrefix` (every key with ''), each
   * with its state; at most `max` of them, `truncated` when there were more. Meant for operators:
   * on Redis it scans the keyspace (every master of a Cluster), so its cost grows with all keys.
   */
  list(keyPrefix: string, max: number): Promise<{ entries: RateLimitEntry[]; truncated: boolean }>;
}

/** Makes the limiter of a rule. */
export type RateLimiterFactory = (rule: RateLimitRule) => RateLimiter;
