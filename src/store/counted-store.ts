/**
 * A store that counts its calls by operation (one call of the port is one round trip on Redis,
 * whatever it does there): wired with BENCH_MODE so `npm run bench` prints the store calls per turn
 * from /metrics (ivr_store_calls_total). A stream reader's blocking reads and a rate limiter's
 * calls are not counted.
 */
import type { Store } from './store-port.js';

export function countedStore(inner: Store, count: (operation: string) => void): Store {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(inner, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let w = wrapped.get(prop);
      if (!w) {
        const fn = value as (...args: unknown[]) => unknown;
        const operation = String(prop);
        w =
          prop === 'close' || prop === 'rateLimiter' || prop === 'streamReader'
            ? fn.bind(target)
            : (...args: unknown[]) => {
                count(operation);
                return fn.apply(target, args);
              };
        wrapped.set(prop, w);
      }
      return w;
    },
  });
}
