/**
 * Decides once per run whether Redis suites run. With REQUIRE_REDIS=1 a missing Redis fails the
 * run with the reason; otherwise the Redis suites are skipped with a loud notice.
 */
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';

export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = redisUrl();
  const ok = await redisAnswers(url);
  if (!ok && process.env.REQUIRE_REDIS === '1') {
    throw new Error(`REQUIRE_REDIS=1 but no Redis answers at ${url}: start redis-server or set REDIS_URL`);
  }
  if (!ok) {
    const line = '!'.repeat(78);
    process.stderr.write(`\n${line}\n!! No Redis at ${url}: every Redis suite is SKIPPED (set REQUIRE_REDIS=1 to fail instead)\n${line}\n\n`);
  }
  project.provide('redisAvailable', ok);
  project.provide('redisUrl', url);
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisAvailable: boolean;
    redisUrl: string;
  }
}
