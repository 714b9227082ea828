/**
 * The blocking stream reader of the in-process stores (memory and embedded): a read that finds
 * nothing new waits until `added` emits the stream's key, its block time runs out, or the reader is
 * closed. Both stores are single-process, so an event emitter is all the wake-up they need.
 */
import type { EventEmitter } from 'node:events';
import type { StreamEntry, StreamReader } from './store-port.js';

export interface EventStreamSource {
  /** Emits a stream's key when an entry is added to it. */
  added: EventEmitter;
  lastStreamId(key: string): Promise<string | null>;
  /** At most `count` entries of `key` after `afterId` (`<ms>-<seq>`), oldest first. */
  after(key: string, afterId: string, count: number): StreamEntry[];
}

export function eventStreamReader(source: EventStreamSource): StreamReader {
  const { added } = source;
  let closed = false;
  const waiting = new Set<() => void>();
  return {
    read: async (key, afterId, count, blockMs) => {
      const from = afterId === '$' ? ((await source.lastStreamId(key)) ?? '0-0') : afterId;
      const now = source.after(key, from, count);
      if (now.length || closed) return now;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          added.off(key, done);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, blockMs);
        added.on(key, done);
        waiting.add(done);
      });
      return source.after(key, from, count);
    },
    close: async () => {
      closed = true;
      for (const done of [...waiting]) done();
    },
  };
}
