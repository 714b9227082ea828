/**
 * Removes a test's (or a test run's) own keys from the shared Redis: SCAN for the prefix, UNLINK in
 * batches. The prefix is the caller's own and carries no glob characters.
 */
import { Redis } from 'ioredis';

export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
