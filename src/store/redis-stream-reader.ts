/**
 * The Redis adapter's stream reader: blocking reads (XREAD BLOCK) of a stream on a connection of
 * its own, so a feed's long wait neither holds nor times out the connection every other command uses.
 */
import { Cluster } from 'ioredis';
import type { RedisClient } from './redis-client.js';
import type { StreamEntry, StreamReader } from './store-port.js';

/**
 * A reader on a connection of its own (a copy of the client's), whose command timeout and socket
 * timeout both outlast its blocking reads: XREAD BLOCK holds its connection silent until an entry
 * comes or the wait ends, and the client's own socket timeout (shorter than a feed's wait) would
 * drop the connection mid-wait. A dead peer is still noticed: the socket timeout is the wait plus
 * a margin, not off.
 */
export async function redisStreamReader(
  client: RedisClient,
  k: (key: string) => string,
): Promise<StreamReader> {
  const conn = client.duplicate();
  conn.on('error', () => undefined);
  let timeoutMs = 0;
  const setTimeoutFor = (blockMs: number) => {
    if (blockMs + 2_000 <= timeoutMs) return;
    timeoutMs = blockMs + 2_000;
    const socketTimeout = timeoutMs + 2_000;
    if (conn instanceof Cluster)
      conn.options.redisOptions = {
        ...conn.options.redisOptions,
        commandTimeout: timeoutMs,
        socketTimeout,
      };
    else Object.assign(conn.options, { commandTimeout: timeoutMs, socketTimeout });
  };
  setTimeoutFor(20_000); // a feed's wait (HEARTBEAT_MS) and more, set before connecting (a Cluster's nodes take it then)
  await conn.connect();
  return {
    async read(key: string, afterId: string, count: number, blockMs: number): Promise<StreamEntry[]> {
      setTimeoutFor(blockMs);
      const r = await conn.xread(
        'COUNT',
        count,
        'BLOCK',
        Math.max(1, Math.floor(blockMs)),
        'STREAMS',
        k(key),
        afterId,
      );
      const entries = r?.[0]?.[1] ?? [];
      return entries.map(([id, flat]) => {
        const fields: Record<string, string> = {};
        for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
        return { id, fields };
      });
    },
    async close(): Promise<void> {
      conn.disconnect();
    },
  };
}
