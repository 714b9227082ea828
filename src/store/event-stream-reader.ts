/**
 * The blocking stream reader of the in-process stores (memory and embedded): a read that finds
 * nothing new waits until `added` emits the stream's key, its block time runs out, or the reader is
 * closed. Both stores are single-process, so an event emitter is all the wake-up they need (the
 * embedded store's worker thread sends the keys of streams that got entries with its answers).
 */
import type { EventEmitter } from 'node:events';
import type { StreamEntry, StreamReader } from './store-port.js';

export interface EventStreamSource {
  /** Emits a stream's key when an entry is added to it. */
  added: EventEmitter;
  lastStreamId(key: string): Promise<string | null>;
  /** At most `count` entries of `key` after `afterId` (`<ms>-<seq>`), oldest first. */
  after(key: string, afterId: string, count: number): Promise<StreamEntry[]>;
}

export function eventStreamReader(source: EventStreamSource): StreamReader {
  const { added } = source;
  let closed = false;
  const waiting = new Set<() => void>();
  return {
    read: async (key, afterId, count, blockMs) => {
      // heard from before the first read: an entry added while it is answered still wakes this one
      let heard = false;
      let wake: (() => void) | undefined;
      const listener = () => {
        heard = true;
        wake?.();
      };
      added.on(key, listener);
      try {
        const from = afterId === '$' ? ((await source.lastStreamId(key)) ?? '0-0') : afterId;
        const now = await source.after(key, from, count);
        if (now.length || closed) return now;
        if (!heard)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, blockMs);
            function done(): void {
              clearTimeout(timer);
              waiting.delete(done);
              resolve();
            }
            wake = done;
            waiting.add(done);
          });
        return await source.after(key, from, count);
      } finally {
        added.off(key, listener);
      }
    },
    close: async () => {
      closed = true;
      for (const done of [...waiting]) done();
    },
  };
}
