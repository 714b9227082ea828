import type { RateLimiter, RateLimitRule, Store } from './store-port.js';
import { storeKeys } from './store-keys.js';

/** The rate-limiter factory the platform takes, over a store: each rule's keys under its own prefix. */
export function rateLimitersOf(store: Store): (rule: RateLimitRule) => RateLimiter {
  return (rule) => store.rateLimiter({ ...rule, name: storeKeys.rateLimitPrefix(rule.name) });
}
