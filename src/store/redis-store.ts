/**
 * The Redis adapter (ioredis; a single node or a Cluster): every operation of the port as Redis
 * commands and the Lua scripts. With redis-client.ts (the client, its fail-fast settings and the
 * scripts it defines), the only module that talks to Redis. See docs/reliability.md.
 */
import { Cluster, type Redis } from 'ioredis';
import type {
  AtomicResult,
  Guard,
  RangeOptions,
  RateLimitRule,
  RateLimiter,
  ScoredMember,
  Store,
  StreamReader,
  TurnCommit,
  TurnCommitOutcome,
  WriteOp,
} from './store-port.js';
import { redisRateLimiter } from './rate-limiter-adapter.js';
import { RedisLockListener } from './redis-lock-listener.js';
import { encodeAtomic } from './encode-atomic.js';
import { createRedisClient, type RedisClient, type RedisClientOptions } from './redis-client.js';
import { redisStreamReader } from './redis-stream-reader.js';
import { groupByHashTag, pipelineWrites } from './redis-write-pipeline.js';

export interface RedisStoreOptions extends RedisClientOptions {
  prefix?: string;
  onError?: (err: Error) => void;
}

export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  private readonly prefix: string;

  constructor(
    private readonly client: RedisClient,
    prefix = '',
  ) {
    this.prefix = prefix;
    this.lockListener = new RedisLockListener(client);
  }

  static async connect(opts: RedisStoreOptions): Promise<RedisStore> {
    const client = createRedisClient(opts);
    client.on('error', (err: Error) => opts.onError?.(err));
    await client.connect();
    return new RedisStore(client, opts.prefix ?? '');
  }

  async lockAndRead(
    lockKey: string,
    token: string,
    ttlMs: number,
    readKey: string,
    create?: { value: string; ttlMs: number },
  ): Promise<{ acquired: boolean; value: string | null; created?: boolean }> {
    const args = [token, String(Math.ceil(ttlMs))];
    if (create) args.push(create.value, String(Math.max(1, Math.ceil(create.ttlMs))));
    const r = await this.client.lockAndRead(this.k(lockKey), this.k(readKey), ...args);
    return { acquired: r[0] === 1, value: r[1] ?? null, ...(r[2] === 1 ? { created: true } : {}) };
  }

  async writeHeld(
    lockKey: string,
    token: string,
    key: string,
    value: string,
    ttlMs: number,
    then: { release: true } | { extendMs: number },
  ): Promise<boolean> {
    const lockTtl = 'release' in then ? '0' : String(Math.max(1, Math.ceil(then.extendMs)));
    return (
      (await this.client.writeHeld(
        this.k(lockKey),
        this.k(key),
        token,
        value,
        String(Math.max(1, Math.ceil(ttlMs))),
        lockTtl,
      )) === 1
    );
  }

  async commitTurn(c: TurnCommit): Promise<TurnCommitOutcome> {
    const { keys, args } = encodeAtomic(c.extra?.ops ?? [], c.extra?.guards ?? [], (key) => this.k(key), [
      c.lockKey,
      c.sessionKey,
      c.idle?.key ?? c.sessionKey,
    ]);
    const idle = c.idle ? (c.idle.at === null ? 'r' : 'z') : '';
    const head = [
      c.token,
      c.session,
      String(Math.max(1, Math.ceil(c.ttlMs))),
      idle,
      c.idle?.member ?? '',
      c.idle?.at != null ? String(c.idle.at) : '',
    ];
    const r = await this.client.commitTurn(keys.length, keys, [...head, ...args]);
    return r === 0 ? 'ok' : r < 0 ? 'lost' : 'refused';
  }

  async releaseLock(lockKey: string, token: string): Promise<boolean> {
    return (await this.client.releaseLock(this.k(lockKey), token)) === 1;
  }

  private readonly lockListener: RedisLockListener;

  async waitForRelease(lockKey: string, timeoutMs: number): Promise<boolean> {
    return this.lockListener.waitForRelease(this.k(lockKey), timeoutMs);
  }

  private k(key: string): string {
    return this.prefix + key;
  }

  get isCluster(): boolean {
    return this.client instanceof Cluster;
  }

  /** A single node runs a script over any keys; a Cluster only over one slot's. */
  get atomicAcrossSlots(): boolean {
    return !this.isCluster;
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(this.k(key));
  }

  async mget(keys: string[]): Promise<Array<string | null>> {
    if (keys.length === 0) return [];
    if (this.isCluster) return Promise.all(keys.map((k) => this.get(k)));
    return this.client.mget(keys.map((k) => this.k(k)));
  }

  async set(key: string, value: string, opts: { ttlMs?: number; nx?: boolean } = {}): Promise<boolean> {
    const k = this.k(key);
    let r: string | null;
    if (opts.ttlMs && opts.nx) r = await this.client.set(k, value, 'PX', opts.ttlMs, 'NX');
    else if (opts.ttlMs) r = await this.client.set(k, value, 'PX', opts.ttlMs);
    else if (opts.nx) r = await this.client.set(k, value, 'NX');
    else r = await this.client.set(k, value);
    return r === 'OK';
  }

  async del(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const counts = await Promise.all(keys.map((k) => this.client.del(this.k(k))));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Batches of the full key names that start with `fullPrefix` (prefix included), by SCAN on every master. */
  private async *scanPrefix(fullPrefix: string): AsyncGenerator<{ node: Redis; keys: string[] }> {
    const match = `${fullPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    const nodes: Redis[] = this.isCluster ? (this.client as Cluster).nodes('master') : [this.client as Redis];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', 1000);
        cursor = next;
        if (keys.length) yield { node, keys };
      } while (cursor !== '0');
    }
  }

  /** The keys (logical names) under `prefix` and what each holds, by SCAN and TYPE (data export). */
  async listKeys(prefix: string): Promise<Array<{ key: string; kind: string }>> {
    const out: Array<{ key: string; kind: string }> = [];
    for await (const { node, keys } of this.scanPrefix(this.k(prefix))) {
      const pipe = node.pipeline();
      for (const key of keys) pipe.type(key);
      const types = (await pipe.exec()) ?? [];
      keys.forEach((key, i) => out.push({ key: key.slice(this.prefix.length), kind: String(types[i]?.[1]) }));
    }
    return out;
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new TypeError('deletePrefix: an empty prefix would delete everything');
    let deleted = 0;
    for await (const { node, keys } of this.scanPrefix(this.k(prefix))) {
      // one UNLINK per key: a Cluster refuses a multi-key command across slots, even on one node
      const pipe = node.pipeline();
      for (const key of keys) pipe.unlink(key);
      for (const [err, n] of (await pipe.exec()) ?? []) {
        if (err) throw err;
        deleted += n as number;
      }
    }
    return deleted;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.client.exists(this.k(key))) === 1;
  }

  async pttl(key: string): Promise<number> {
    return this.client.pttl(this.k(key));
  }

  async incrby(key: string, by: number, ttlMs?: number): Promise<number> {
    return this.client.incrWithTtl(this.k(key), String(by), String(ttlMs ?? 0));
  }

  async hget(key: string, field: string): Promise<string | null> {
    return this.client.hget(this.k(key), field);
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return this.client.hgetall(this.k(key));
  }

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    return this.client.lrange(this.k(key), start, stop);
  }

  async lastStreamId(key: string): Promise<string | null> {
    const last = await this.client.xrevrange(this.k(key), '+', '-', 'COUNT', 1);
    return last[0]?.[0] ?? null;
  }

  /** A reader on a connection of its own (redis-stream-reader.ts). */
  async streamReader(): Promise<StreamReader> {
    return redisStreamReader(this.client, (key) => this.k(key));
  }

  async hgetallMany(keys: string[]): Promise<Array<Record<string, string>>> {
    if (keys.length === 0) return [];
    if (this.isCluster) return Promise.all(keys.map((k) => this.hgetall(k)));
    const pipe = this.client.pipeline();
    for (const k of keys) pipe.hgetall(this.k(k));
    const res = (await pipe.exec()) ?? [];
    return res.map(([err, v]) => {
      if (err) throw err;
      return v as Record<string, string>;
    });
  }

  async hset(key: string, fields: Record<string, string>): Promise<void> {
    if (Object.keys(fields).length) await this.client.hset(this.k(key), fields);
  }

  async smembers(key: string): Promise<string[]> {
    return this.client.smembers(this.k(key));
  }

  private static scored(flat: string[]): ScoredMember[] {
    const out: ScoredMember[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ member: flat[i]!, score: Number(flat[i + 1]) });
    return out;
  }

  async zrangeByScore(
    key: string,
    min: number,
    max: number,
    opts: RangeOptions = {},
  ): Promise<ScoredMember[]> {
    const lo = Number.isFinite(min) ? String(min) : '-inf';
    const hi = Number.isFinite(max) ? String(max) : '+inf';
    const limit =
      opts.count !== undefined || opts.offset
        ? ['LIMIT', String(opts.offset ?? 0), String(opts.count ?? -1)]
        : [];
    const flat = opts.rev
      ? await this.client.call('ZRANGE', this.k(key), hi, lo, 'BYSCORE', 'REV', ...limit, 'WITHSCORES')
      : await this.client.call('ZRANGE', this.k(key), lo, hi, 'BYSCORE', ...limit, 'WITHSCORES');
    return RedisStore.scored(flat as string[]);
  }

  async zrange(
    key: string,
    start: number,
    stop: number,
    opts: { rev?: boolean } = {},
  ): Promise<ScoredMember[]> {
    const flat = opts.rev
      ? await this.client.zrevrange(this.k(key), start, stop, 'WITHSCORES')
      : await this.client.zrange(this.k(key), start, stop, 'WITHSCORES');
    return RedisStore.scored(flat);
  }

  async zcount(key: string, min: number, max: number): Promise<number> {
    return this.client.zcount(
      this.k(key),
      Number.isFinite(min) ? min : '-inf',
      Number.isFinite(max) ? max : '+inf',
    );
  }

  async zcard(key: string): Promise<number> {
    return this.client.zcard(this.k(key));
  }

  async zscore(key: string, member: string): Promise<number | null> {
    const s = await this.client.zscore(this.k(key), member);
    return s === null ? null : Number(s);
  }

  async zrank(key: string, member: string, opts: { rev?: boolean } = {}): Promise<number | null> {
    return opts.rev ? this.client.zrevrank(this.k(key), member) : this.client.zrank(this.k(key), member);
  }

  async atomic(ops: WriteOp[], guards: Guard[] = []): Promise<AtomicResult> {
    const { keys, args, logical } = encodeAtomic(ops, guards, (key) => this.k(key));
    let r: number;
    try {
      r = await this.client.atomic(keys.length, keys, args);
    } catch (err) {
      // a programming error on a cluster: name the keys instead of ioredis' pipeline message
      if (err instanceof Error && /CROSSSLOT|same slot/i.test(err.message)) {
        throw new Error(
          `atomic: keys in different hash slots (${[...logical.keys()].join(', ')}); all keys of one atomic call must share a hash tag`,
        );
      }
      throw err;
    }
    return r === 0 ? { ok: true } : { ok: false, failedGuard: r - 1 };
  }

  async acquireSlot(
    key: string,
    member: string,
    expiresAtMs: number,
    max: number,
  ): Promise<{ acquired: boolean; inUse: number }> {
    const r = await this.client.acquireSlot(
      this.k(key),
      member,
      String(expiresAtMs),
      String(max),
      String(Date.now()),
    );
    return { acquired: r[0] === 1, inUse: r[1] };
  }

  async releaseSlot(key: string, member: string): Promise<boolean> {
    return (await this.client.zrem(this.k(key), member)) > 0;
  }

  async claimDue(key: string, nowMs: number, leaseUntilMs: number, max: number): Promise<string[]> {
    return this.client.claimDue(
      this.k(key),
      String(Math.floor(nowMs)),
      String(Math.ceil(leaseUntilMs)),
      String(Math.max(1, Math.floor(max))),
    );
  }

  async countSlots(key: string): Promise<number> {
    return this.client.zcount(this.k(key), `(${Date.now()}`, '+inf');
  }

  rateLimiter(rule: RateLimitRule): RateLimiter {
    return redisRateLimiter(this.client, this.prefix, rule, (fullPrefix) => this.scanPrefix(fullPrefix));
  }

  async bulk(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    if (this.isCluster) {
      // one script per hash tag (one slot), the tags in parallel: the ops of one tag keep their order
      await Promise.all(groupByHashTag(ops).map((group) => this.atomic(group)));
      return;
    }
    await pipelineWrites(this.client, (key) => this.k(key), ops);
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async memoryUsage(keys: string[]): Promise<number> {
    const sizes = await Promise.all(keys.map((k) => this.client.memoryUsage(this.k(k))));
    return sizes.reduce<number>((a, b) => a + (b ?? 0), 0);
  }

  async close(): Promise<void> {
    await this.lockListener.close();
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
