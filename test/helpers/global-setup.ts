/**
 * Decides once per run whether Redis suites run. With REQUIRE_REDIS=1 a missing Redis fails the
 * run with the reason; otherwise the Redis suites are skipped with a loud notice. It also starts a
 * local three-master Redis Cluster (redis-server processes on loopback ports) for the
 * `redis-cluster` store factory, and tells the reliability suites whether they can spawn
 * redis-server. TEST_REDIS_CLUSTER=off skips the cluster (loudly); with REQUIRE_REDIS=1 a cluster
 * or a redis-server binary that is missing is a failure too.
 *
 * Every store key of a run starts with `test:<run id>:` (test-stores.ts), and the run removes its
 * own keys from the shared Redis when it ends, so runs leave nothing behind and never touch another
 * run's keys.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { redisServerAvailable, startRedisCluster, type RedisClusterProcesses } from './redis-processes.js';
import { deleteKeys } from './redis-keys.js';

/**
 * The test run reads only its own variables (REQUIRE_REDIS, TEST_REDIS_URL, TEST_REDIS_CLUSTER,
 * TEST_REDIS_SERVER_BIN), never the service's REDIS_URL: a user's REDIS_URL may be another
 * project's Redis.
 */
export const redisUrl = (): string => process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1500,
    retryStrategy: () => null,
  });
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

export function notice(text: string): void {
  const line = '!'.repeat(78);
  process.stderr.write(`\n${line}\n!! ${text}\n${line}\n\n`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const required = process.env.REQUIRE_REDIS === '1';
  const url = redisUrl();
  const ok = await redisAnswers(url);
  if (!ok && required) {
    throw new Error(
      `REQUIRE_REDIS=1 but no Redis answers at ${url}: start redis-server or set TEST_REDIS_URL`,
    );
  }
  if (!ok) notice(`No Redis at ${url}: every Redis suite is SKIPPED (set REQUIRE_REDIS=1 to fail instead)`);
  project.provide('redisAvailable', ok);
  project.provide('redisUrl', url);
  const runPrefix = `test:${randomUUID().slice(0, 8)}:`;
  project.provide('testRunPrefix', runPrefix);

  const canSpawn = redisServerAvailable();
  if (!canSpawn && required)
    throw new Error(
      'REQUIRE_REDIS=1 but no redis-server binary to run (install redis-server or set TEST_REDIS_SERVER_BIN)',
    );
  if (!canSpawn)
    notice(
      'No redis-server binary: the Redis Cluster, fault and multi-instance suites are SKIPPED (install redis-server to run them)',
    );
  project.provide('redisServerAvailable', canSpawn);

  let cluster: RedisClusterProcesses | null = null;
  if (canSpawn && process.env.TEST_REDIS_CLUSTER !== 'off') {
    try {
      cluster = await startRedisCluster(3);
    } catch (err) {
      if (required) throw err;
      notice(`The local Redis Cluster did not start (${(err as Error).message}): cluster suites are SKIPPED`);
    }
  } else if (canSpawn) {
    notice('TEST_REDIS_CLUSTER=off: the redis-cluster store suites are SKIPPED');
  }
  project.provide('redisClusterUrl', cluster?.url ?? '');
  return async () => {
    await cluster?.close();
    if (ok)
      await deleteKeys(url, runPrefix).catch((err: Error) =>
        notice(`Could not remove this run's keys under ${runPrefix}: ${err.message}`),
      );
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisAvailable: boolean;
    redisUrl: string;
    /** `test:<run id>:`: every store prefix of the run starts with it, and the run removes its keys. */
    testRunPrefix: string;
    redisServerAvailable: boolean;
    /** Comma-separated seed URLs of the local cluster; '' when it is not running. */
    redisClusterUrl: string;
  }
}
