/**
 * The Redis adapter's client (ioredis; a single node or a Cluster) and the Lua scripts defined on
 * it. Settings are chosen for fast failure: no offline queue (a command while disconnected fails
 * at once, so requests answer 503 or the retry document instead of hanging), one retry per request,
 * a command timeout, a socket timeout (a connection that stays silent while commands wait is
 * dropped and made again: a partition or a dead host sends no reset), and a capped reconnect
 * backoff so the service recovers by itself. No auto-pipelining on a single node: ioredis keeps one
 * auto-pipeline in flight per node, so an unanswered command holds every later one past its own
 * timeout (tried twice; the blink and partition tests fail on it). See docs/reliability.md.
 */
import { Redis, Cluster, type RedisOptions, type ClusterOptions } from 'ioredis';
import { readFileSync } from 'node:fs';

/** The Lua scripts (lua/*.lua state their KEYS, ARGV and reply), as ioredis defines them. */
interface Scripts {
  /** Dynamic key count: the number of keys, the keys, then ARGV. */
  atomic(numKeys: number, keys: string[], args: string[]): Promise<number>;
  acquireSlot(
    key: string,
    member: string,
    expiresAtMs: string,
    max: string,
    nowMs: string,
  ): Promise<[number, number]>;
  incrWithTtl(key: string, by: string, ttlMs: string): Promise<number>;
  memoryUsage(key: string): Promise<number | null>;
  lockAndRead(lockKey: string, readKey: string, ...args: string[]): Promise<[number, string | null, number]>;
  writeHeld(
    lockKey: string,
    key: string,
    token: string,
    value: string,
    ttlMs: string,
    lockTtlMs: string,
  ): Promise<number>;
  claimDue(key: string, nowMs: string, leaseUntilMs: string, max: string): Promise<string[]>;
  /** Dynamic key count, as atomic. */
  commitTurn(numKeys: number, keys: string[], args: string[]): Promise<number>;
  releaseLock(lockKey: string, token: string): Promise<number>;
}

/** A script's source as it is defined: with the shared writes interpreter (lua/lib/apply-encoded.lua) first where it uses it. */
export function scriptSource(name: string): string {
  const lua = readFileSync(new URL(`./lua/${name}.lua`, import.meta.url), 'utf8');
  return lua.includes('apply_encoded(')
    ? `${readFileSync(new URL('./lua/lib/apply-encoded.lua', import.meta.url), 'utf8')}\n${lua}`
    : lua;
}

/** A client with the scripts defined on it. */
export type RedisClient = (Redis | Cluster) & Scripts;

export interface RedisClientOptions {
  url: string; // one URL, or several comma-separated (cluster seed nodes)
  cluster?: boolean;
  commandTimeoutMs?: number;
}

/** Defines the scripts on the client; ioredis sends them by EVALSHA and loads them when a node lacks them. */
function defineScripts(client: Redis | Cluster): RedisClient {
  const lua = (url: URL) => readFileSync(url, 'utf8');
  client.defineCommand('atomic', { lua: scriptSource('atomic') });
  client.defineCommand('commitTurn', { lua: scriptSource('commit-turn') });
  client.defineCommand('releaseLock', {
    numberOfKeys: 1,
    lua: lua(new URL('./lua/release-lock.lua', import.meta.url)),
  });
  client.defineCommand('acquireSlot', {
    numberOfKeys: 1,
    lua: lua(new URL('./lua/acquire-slot.lua', import.meta.url)),
  });
  client.defineCommand('incrWithTtl', {
    numberOfKeys: 1,
    lua: lua(new URL('./lua/incr-with-ttl.lua', import.meta.url)),
  });
  client.defineCommand('memoryUsage', {
    numberOfKeys: 1,
    lua: lua(new URL('./lua/memory-usage.lua', import.meta.url)),
  });
  client.defineCommand('lockAndRead', {
    numberOfKeys: 2,
    lua: lua(new URL('./lua/lock-and-read.lua', import.meta.url)),
  });
  client.defineCommand('writeHeld', {
    numberOfKeys: 2,
    lua: lua(new URL('./lua/write-held.lua', import.meta.url)),
  });
  client.defineCommand('claimDue', {
    numberOfKeys: 1,
    lua: lua(new URL('./lua/claim-due.lua', import.meta.url)),
  });
  return client as RedisClient;
}

const baseOptions = (timeout: number): RedisOptions => ({
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: timeout,
  connectTimeout: 2_000,
  socketTimeout: 5_000,
  retryStrategy: (times: number) => Math.min(100 * times, 2_000),
});

/** A client (not yet connected: `lazyConnect`) for one node, or a Cluster when several URLs or `cluster`. */
export function createRedisClient(opts: RedisClientOptions): RedisClient {
  const urls = opts.url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const base = baseOptions(opts.commandTimeoutMs ?? 2_000);
  if (opts.cluster || urls.length > 1) {
    const nodes = urls.map((u) => {
      const p = new URL(u);
      return { host: p.hostname, port: Number(p.port || 6379) };
    });
    const first = new URL(urls[0]!);
    const clusterOptions: ClusterOptions = {
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      // the auto-pipeline picks a command's slot from its first argument, which for the atomic
      // script (key count first) is not a key: two calls on different slots would share a pipeline
      autoPipeliningIgnoredCommands: ['atomic', 'commitTurn'],
      clusterRetryStrategy: (times: number) => Math.min(100 * times, 2_000),
      redisOptions: { ...base, password: first.password || undefined },
    };
    return defineScripts(new Cluster(nodes, clusterOptions));
  }
  return defineScripts(new Redis(urls[0]!, base));
}
