/**
 * Counts the stream readers the Redis store makes (each a connection of its own), how many are
 * open, and their failed reads: for the live feed suites (feed-load, feed-idle).
 */
import type { RedisStore, StreamReader } from '../../src/store/index.js';

/** Counts the stream readers (connections of their own on Redis) the store makes, and their failed reads. */
export function countReaders(store: RedisStore) {
  const counts = { made: 0, open: 0, failedReads: 0, errors: [] as string[] };
  const make = store.streamReader.bind(store);
  store.streamReader = async (): Promise<StreamReader> => {
    const reader = await make();
    counts.made++;
    counts.open++;
    let closed = false;
    return {
      read: (...args) =>
        reader.read(...args).catch((err: unknown) => {
          // a read ended by closing its reader is no failure
          if (!closed) {
            counts.failedReads++;
            counts.errors.push(String(err));
          }
          throw err;
        }),
      close: () => {
        closed = true;
        counts.open--;
        return reader.close();
      },
    };
  };
  return counts;
}
