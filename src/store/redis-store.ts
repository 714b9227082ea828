/**
 * The Redis adapter (ioredis; a single node or a Cluster): every operation of the port as Redis
 * commands and the Lua scripts. With redis-client.ts (the client, its fail-fast settings and the
 * scripts it defines), the only module that talks to Redis. See docs/reliability.md.
 */
import { Cluster, type Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type {
  AtomicResult,
  Guard,
  RangeOptions,
  RateLimitRule,
  RateLimiter,
  ScoredMember,
  Store,
  StreamEntry,
  StreamReader,
  TurnCommit,
  TurnCommitOutcome,
  WriteOp,
} from './store-port.js';
import { toRateLimiter } from './rate-limiter-adapter.js';
import { RedisLockListener } from './redis-lock-listener.js';
import { encodeAtomic } from './encode-atomic.js';
import { createRedisClient, type RedisClient, type RedisClientOptions } from './redis-client.js';

export interface RedisStoreOptions extends RedisClientOptions {
  prefix?: string;
  onError?: (err: Error) => void;
}

/** The hash tag of a key (what Redis Cluster hashes: the text between its first `{` and the next `}`), else the key. */
function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
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

  /**
   * A reader on a connection of its own (a copy of the client's), whose command timeout and socket
   * timeout both outlast its blocking reads: XREAD BLOCK holds its connection silent until an entry
   * comes or the wait ends, and the client's own socket timeout (shorter than a feed's wait) would
   * drop the connection mid-wait. A dead peer is still noticed: the socket timeout is the wait plus
   * a margin, not off.
   */
  async streamReader(): Promise<StreamReader> {
    const conn = this.client.duplicate();
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
    const k = (key: string) => this.k(key);
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
    const limiter = new RateLimiterRedis({
      storeClient: this.client,
      useRedisPackage: false,
      keyPrefix: this.prefix + rule.name,
      points: rule.points,
      duration: rule.durationS,
      blockDuration: rule.blockDurationS ?? 0,
      rejectIfRedisNotReady: true,
    });
    // the limiter names a key `<its prefix>:<key>`
    const keysOf = async (keyPrefix: string, max: number): Promise<string[]> => {
      const keys: string[] = [];
      for await (const batch of this.scanPrefix(limiter.getKey(keyPrefix))) {
        keys.push(...batch.keys.map((k) => limiter.parseKey(k)));
        if (keys.length > max) break;
      }
      return keys;
    };
    return toRateLimiter(limiter, rule.points, keysOf);
  }

  async bulk(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    if (this.isCluster) {
      // one script per hash tag (one slot), the tags in parallel: the ops of one tag keep their order
      const byTag = new Map<string, WriteOp[]>();
      for (const op of ops) {
        const tag = hashTagOf(op.key);
        const group = byTag.get(tag);
        if (group) group.push(op);
        else byTag.set(tag, [op]);
      }
      await Promise.all([...byTag.values()].map((group) => this.atomic(group)));
      return;
    }
    const pipe = this.client.pipeline();
    for (const op of ops) {
      const k = this.k(op.key);
      switch (op.op) {
        case 'set':
          if (op.ttlMs) pipe.set(k, op.value, 'PX', op.ttlMs);
          else pipe.set(k, op.value);
          break;
        case 'del':
          pipe.del(k);
          break;
        case 'hset':
          pipe.hset(k, op.fields);
          break;
        case 'hdel':
          pipe.hdel(k, ...op.fields);
          break;
        case 'hincrby':
          pipe.hincrby(k, op.field, op.by);
          break;
        case 'zadd':
          pipe.zadd(k, op.score, op.member);
          break;
        case 'zrem':
          pipe.zrem(k, op.member);
          break;
        case 'sadd':
          pipe.sadd(k, op.member);
          break;
        case 'srem':
          pipe.srem(k, op.member);
          break;
        case 'incrby':
          pipe.incrby(k, op.by);
          break;
        case 'pexpire':
          pipe.pexpire(k, op.ttlMs);
          break;
        case 'rpush':
          pipe.rpush(k, op.value).ltrim(k, -Math.max(1, Math.floor(op.keepLast)), -1);
          break;
        case 'zremrangebyscore':
          pipe.zremrangebyscore(
            k,
            Number.isFinite(op.min) ? op.min : '-inf',
            Number.isFinite(op.max) ? op.max : '+inf',
          );
          break;
        case 'xadd':
          pipe.xadd(
            k,
            'MAXLEN',
            '~',
            Math.max(1, Math.floor(op.maxLen)),
            '*',
            ...Object.entries(op.fields).flat(),
          );
          break;
      }
    }
    const res = await pipe.exec();
    const failed = res?.find(([err]) => err)?.[0];
    if (failed) throw failed;
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
