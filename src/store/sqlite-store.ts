/**
 * The embedded durable store: every operation of the port on SQLite (better-sqlite3) under a data
 * directory (the file and its durability: sqlite-database.ts; the keys and each WriteOp:
 * sqlite-keyspace.ts). better-sqlite3 is synchronous, so each call of the port runs whole between
 * two turns of the event loop, and each multi-step operation is one SQLite transaction: it lands
 * whole on disk or not at all. One process owns a data directory.
 */
import { EventEmitter } from 'node:events';
import type {
  AtomicResult,
  Guard,
  RateLimitRule,
  RateLimiter,
  Store,
  StreamEntry,
  StreamReader,
  TurnCommit,
  TurnCommitOutcome,
  WriteOp,
} from './store-port.js';
import { turnCommitOutcome, turnCommitWrites } from './store-port.js';
import { LockWaiters } from './lock-waiters.js';
import { memoryRateLimiter } from './rate-limiter-adapter.js';
import { eventStreamReader } from './event-stream-reader.js';
import { openDatabase, type OpenedDatabase } from './sqlite-database.js';
import { SqliteKeyspace } from './sqlite-keyspace.js';
import { prepareQueries, type SqliteQueries } from './sqlite-queries.js';
import { SqliteWriteGroup } from './sqlite-write-group.js';
import { SqliteSortedSets } from './sqlite-sorted-sets.js';

export interface SqliteStoreOptions {
  /** The data directory (created when absent). */
  dir: string;
  prefix?: string;
  /** How often the WAL is flushed to the disk (the most a power cut can lose). */
  syncMs?: number;
  /** Hears the key of each stream that got an entry (the worker's side of embedded-store.ts). */
  onStreamAdded?: (key: string) => void;
}

export class SqliteStore implements Store {
  readonly kind = 'embedded' as const;
  readonly atomicAcrossSlots = true;
  private readonly space: SqliteKeyspace;
  private readonly q: SqliteQueries;
  private readonly writes: SqliteWriteGroup;
  private readonly zsets: SqliteSortedSets;
  private readonly sweeper: NodeJS.Timeout;
  private readonly added = new EventEmitter().setMaxListeners(0);
  private closed = false;

  private constructor(
    readonly database: OpenedDatabase,
    private readonly prefix: string,
    onStreamAdded?: (key: string) => void,
  ) {
    const db = database.db;
    this.space = new SqliteKeyspace(db, prefix, (key) => {
      this.added.emit(key);
      onStreamAdded?.(key);
    });
    this.q = prepareQueries(db);
    this.writes = new SqliteWriteGroup(db);
    this.zsets = new SqliteSortedSets(this.space, this.q);
    this.sweeper = setInterval(() => {
      if (!this.closed) this.space.sweep();
    }, 5_000);
    this.sweeper.unref();
  }

  /** Opens (or creates) the store of a data directory; see sqlite-database.ts for what it checks. */
  static async open(opts: SqliteStoreOptions): Promise<SqliteStore> {
    const database = await openDatabase(opts.dir);
    database.startSync(opts.syncMs ?? 1_000);
    return new SqliteStore(database, opts.prefix ?? '', opts.onStreamAdded);
  }

  /** One step of writes in the current group commit (sqlite-write-group.ts). */
  private tx<T>(fn: () => T): Promise<T> {
    return this.writes.step(fn);
  }

  async get(key: string): Promise<string | null> {
    return this.space.typed(key, 'string')?.v ?? null;
  }

  async mget(keys: string[]): Promise<Array<string | null>> {
    return keys.map((key) => this.space.typed(key, 'string')?.v ?? null);
  }

  async set(key: string, value: string, opts: { ttlMs?: number; nx?: boolean } = {}): Promise<boolean> {
    return this.tx(() => {
      if (opts.nx && this.space.live(key)) return false;
      this.space.setString(key, value, opts.ttlMs);
      return true;
    });
  }

  async del(keys: string[]): Promise<number> {
    return this.tx(() => keys.filter((key) => this.space.live(key) && this.space.drop(key)).length);
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new TypeError('deletePrefix: an empty prefix would delete everything');
    return this.tx(() => this.space.deletePrefix(prefix));
  }

  async exists(key: string): Promise<boolean> {
    return this.space.live(key) !== undefined;
  }

  async pttl(key: string): Promise<number> {
    const row = this.space.live(key);
    if (!row) return -2;
    return row.exp === null ? -1 : Math.max(0, row.exp - Date.now());
  }

  async incrby(key: string, by: number, ttlMs?: number): Promise<number> {
    return this.tx(() => {
      const next = this.space.incr(key, by);
      if (ttlMs && next === by) this.space.expire(key, ttlMs);
      return next;
    });
  }

  async hget(key: string, field: string): Promise<string | null> {
    if (!this.space.typed(key, 'hash')) return null;
    return (this.space.sql.hget.get(this.space.k(key), field) as string | undefined) ?? null;
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    if (!this.space.typed(key, 'hash')) return {};
    return Object.fromEntries(this.q.hall.all(this.space.k(key)) as Array<[string, string]>);
  }

  async hgetallMany(keys: string[]): Promise<Array<Record<string, string>>> {
    return Promise.all(keys.map((k) => this.hgetall(k)));
  }

  async hset(key: string, fields: Record<string, string>): Promise<void> {
    await this.tx(() => this.space.apply({ op: 'hset', key, fields }));
  }

  async smembers(key: string): Promise<string[]> {
    if (!this.space.typed(key, 'set')) return [];
    return this.q.members.all(this.space.k(key)) as string[];
  }

  // sorted-set reads (sqlite-sorted-sets.ts)
  zrangeByScore: Store['zrangeByScore'] = (...a) => this.zsets.zrangeByScore(...a);
  zrange: Store['zrange'] = (...a) => this.zsets.zrange(...a);
  zcount: Store['zcount'] = (...a) => this.zsets.zcount(...a);
  zcard: Store['zcard'] = (...a) => this.zsets.zcard(...a);
  zscore: Store['zscore'] = (...a) => this.zsets.zscore(...a);
  zrank: Store['zrank'] = (...a) => this.zsets.zrank(...a);

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    if (!this.space.typed(key, 'list')) return [];
    const list = this.q.lall.all(this.space.k(key)) as string[];
    const n = list.length;
    const s = start < 0 ? Math.max(0, n + start) : start;
    const e = stop < 0 ? n + stop : Math.min(stop, n - 1);
    return s > e ? [] : list.slice(s, e + 1);
  }

  async lastStreamId(key: string): Promise<string | null> {
    return this.space.typed(key, 'stream')?.v ?? null;
  }

  /** At most `count` entries of a stream after `afterId` (`<ms>-<seq>`), oldest first. */
  async streamAfter(key: string, afterId: string, count: number): Promise<StreamEntry[]> {
    if (!this.space.typed(key, 'stream')) return [];
    const [ms, seq] = afterId.split('-').map(Number) as [number, number];
    const rows = this.q.xafter.all(this.space.k(key), ms, ms, seq ?? 0, count) as Array<{
      ms: number;
      seq: number;
      f: string;
    }>;
    return rows.map((r) => ({ id: `${r.ms}-${r.seq}`, fields: JSON.parse(r.f) as Record<string, string> }));
  }

  async streamReader(): Promise<StreamReader> {
    return eventStreamReader({
      added: this.added,
      lastStreamId: (key) => this.lastStreamId(key),
      after: (key, afterId, count) => this.streamAfter(key, afterId, count),
    });
  }

  async lockAndRead(
    lockKey: string,
    token: string,
    ttlMs: number,
    readKey: string,
    create?: { value: string; ttlMs: number },
  ): Promise<{ acquired: boolean; value: string | null; created?: boolean }> {
    return this.tx(() => {
      const acquired = !this.space.live(lockKey);
      if (acquired) this.space.setString(lockKey, token, ttlMs);
      const value = this.space.typed(readKey, 'string')?.v ?? null;
      if (acquired && value === null && create) {
        this.space.setString(readKey, create.value, create.ttlMs);
        return { acquired, value: create.value, created: true };
      }
      return { acquired, value };
    });
  }

  async writeHeld(
    lockKey: string,
    token: string,
    key: string,
    value: string,
    ttlMs: number,
    then: { release: true } | { extendMs: number },
  ): Promise<boolean> {
    const lockOp: WriteOp =
      'release' in then ? { op: 'del', key: lockKey } : { op: 'pexpire', key: lockKey, ttlMs: then.extendMs };
    const ok = (
      await this.atomic([{ op: 'set', key, value, ttlMs }, lockOp], [{ key: lockKey, equals: token }])
    ).ok;
    if (ok && 'release' in then) this.lockWaiters.wake(lockKey);
    return ok;
  }

  private guardHolds(g: Guard): boolean {
    if ('hashField' in g) {
      const v = this.space.typed(g.key, 'hash')
        ? (this.space.sql.hget.get(this.space.k(g.key), g.hashField) as string | undefined)
        : undefined;
      return 'absent' in g ? v === undefined : v === g.equals;
    }
    const row = this.space.live(g.key);
    if ('absent' in g) return row === undefined;
    if ('present' in g) return row !== undefined;
    return row?.kind === 'string' && row.v === g.equals;
  }

  async atomic(ops: WriteOp[], guards: Guard[] = []): Promise<AtomicResult> {
    return this.tx((): AtomicResult => {
      for (let i = 0; i < guards.length; i++)
        if (!this.guardHolds(guards[i]!)) return { ok: false, failedGuard: i };
      // a failing op throws, and the transaction undoes the ones before it
      for (const op of ops) this.space.apply(op);
      return { ok: true };
    });
  }

  async acquireSlot(
    key: string,
    member: string,
    expiresAtMs: number,
    max: number,
  ): Promise<{ acquired: boolean; inUse: number }> {
    return this.tx(() => {
      this.space.ensure(key, 'zset');
      const full = this.space.k(key);
      this.q.zdelBelow.run(full, Date.now());
      const held = this.q.zscore.get(full, member) !== undefined;
      let inUse = this.q.zcard.get(full) as number;
      if (held || inUse < max) {
        this.space.sql.zput.run(full, member, expiresAtMs);
        if (!held) inUse++;
        return { acquired: true, inUse };
      }
      return { acquired: false, inUse };
    });
  }

  async claimDue(key: string, nowMs: number, leaseUntilMs: number, max: number): Promise<string[]> {
    return this.tx(() => {
      const due = this.zsets.range(key, -Infinity, nowMs, false, 0, Math.max(1, Math.floor(max)));
      for (const { member } of due) this.space.sql.zput.run(this.space.k(key), member, leaseUntilMs);
      return due.map((x) => x.member);
    });
  }

  async releaseSlot(key: string, member: string): Promise<boolean> {
    return this.tx(() => {
      const held =
        this.space.typed(key, 'zset') !== undefined &&
        this.q.zscore.get(this.space.k(key), member) !== undefined;
      this.space.apply({ op: 'zrem', key, member });
      return held;
    });
  }

  async countSlots(key: string): Promise<number> {
    if (!this.space.typed(key, 'zset')) return 0;
    return this.q.zfrom.get(this.space.k(key), Date.now()) as number;
  }

  /** Rate windows are kept in memory: they start afresh after a restart (docs/storage.md). */
  rateLimiter(rule: RateLimitRule): RateLimiter {
    return memoryRateLimiter(this.prefix, rule);
  }

  async bulk(ops: WriteOp[]): Promise<void> {
    await this.tx(() => {
      for (const op of ops) this.space.apply(op);
    });
  }

  async ping(): Promise<boolean> {
    return !this.closed && this.space.db.open;
  }

  async memoryUsage(keys: string[]): Promise<number> {
    let bytes = 0;
    for (const key of keys)
      if (this.space.live(key))
        bytes += key.length + 48 + (this.q.size.get({ k: this.space.k(key) }) as number);
    return bytes;
  }

  /** The live keys (logical names) under `prefix` and what each holds (data export). */
  async listKeys(prefix: string): Promise<Array<{ key: string; kind: string }>> {
    const full = this.space.k(prefix);
    const rows = this.space.db
      .prepare('SELECT k, kind FROM keys WHERE k >= ? AND k < ? AND (exp IS NULL OR exp > ?)')
      .all(full, `${full}\u{10FFFF}`, Date.now()) as Array<{ k: string; kind: string }>;
    return rows.map((r) => ({ key: r.k.slice(this.prefix.length), kind: r.kind }));
  }

  /** A value of the data directory itself (not a key of the port), e.g. the sealed admin token. */
  async readMeta(name: string): Promise<string | null> {
    return (
      (this.space.db.prepare('SELECT v FROM meta WHERE name = ?').pluck().get(name) as string | undefined) ??
      null
    );
  }

  /** Keeps `value` under `name` unless one is kept already; answers the one kept. */
  async keepMeta(name: string, value: string): Promise<string> {
    this.space.db
      .prepare('INSERT INTO meta (name, v) VALUES (?, ?) ON CONFLICT (name) DO NOTHING')
      .run(name, value);
    return (await this.readMeta(name))!;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    this.writes.commitGroup();
    await this.database.close();
  }

  /** A turn's commit: its writes in one transaction (see Store.commitTurn). */
  async commitTurn(c: TurnCommit): Promise<TurnCommitOutcome> {
    const { ops, guards } = turnCommitWrites(c);
    const outcome = turnCommitOutcome(await this.atomic(ops, guards));
    if (outcome === 'ok') this.lockWaiters.wake(c.lockKey);
    return outcome;
  }

  /** Waiters for locks this process releases (the embedded store has one process). */
  private readonly lockWaiters = new LockWaiters();

  async releaseLock(lockKey: string, token: string): Promise<boolean> {
    const ok = (await this.atomic([{ op: 'del', key: lockKey }], [{ key: lockKey, equals: token }])).ok;
    if (ok) this.lockWaiters.wake(lockKey);
    return ok;
  }

  async waitForRelease(lockKey: string, timeoutMs: number): Promise<boolean> {
    if (!(await this.exists(lockKey))) return true;
    const w = this.lockWaiters.add(lockKey, timeoutMs);
    try {
      return await w.released;
    } finally {
      w.done();
    }
  }
}
