/**
 * The embedded store: every operation of the port on plain maps, with lazy expiry and a periodic
 * sweep (the keys: memory-keyspace.ts; each WriteOp: memory-write-ops.ts). Single-threaded
 * JavaScript makes each call atomic, which is what `atomic` promises. With `calls`, the number of
 * calls it keeps is bounded (memory-call-cap.ts).
 */
import { EventEmitter } from 'node:events';
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
import { turnCommitOutcome, turnCommitWrites } from './store-port.js';
import { LockWaiters } from './lock-waiters.js';
import { memoryRateLimiter } from './rate-limiter-adapter.js';
import { eventStreamReader } from './event-stream-reader.js';
import { MemoryCallCap, type CallCapOptions } from './memory-call-cap.js';
import { MemoryKeyspace, type MemoryStream } from './memory-keyspace.js';
import { MemoryWriteOps } from './memory-write-ops.js';

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  readonly atomicAcrossSlots = true;
  private readonly space: MemoryKeyspace;
  private readonly writes: MemoryWriteOps;
  private readonly sweeper: NodeJS.Timeout;
  private readonly cap: MemoryCallCap | undefined;
  /** Emits a stream's key when an entry is added to it (wakes blocking reads). */
  private readonly added = new EventEmitter().setMaxListeners(0);
  private closed = false;

  constructor(
    private readonly prefix = '',
    options: { calls?: CallCapOptions } = {},
  ) {
    this.space = new MemoryKeyspace(prefix);
    this.sweeper = setInterval(() => this.space.sweep(), 5_000);
    this.sweeper.unref();
    this.cap = options.calls ? new MemoryCallCap(options.calls) : undefined;
    this.writes = new MemoryWriteOps(this.space, {
      written: (key, value) => this.cap?.written(key, value),
      added: (key) => this.added.emit(key),
    });
  }

  async get(key: string): Promise<string | null> {
    return (this.space.typed(key, 'string')?.value as string | undefined) ?? null;
  }

  async mget(keys: string[]): Promise<Array<string | null>> {
    return keys.map((key) => (this.space.typed(key, 'string')?.value as string | undefined) ?? null);
  }

  async set(key: string, value: string, opts: { ttlMs?: number; nx?: boolean } = {}): Promise<boolean> {
    if (opts.nx && this.space.live(key)) return false;
    this.space.setString(key, value, opts.ttlMs);
    this.cap?.written(key, value);
    return true;
  }

  async del(keys: string[]): Promise<number> {
    let n = 0;
    for (const key of keys) if (this.space.live(key) && this.space.delete(key)) n++;
    return n;
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new TypeError('deletePrefix: an empty prefix would delete everything');
    return this.space.deletePrefix(prefix);
  }

  async exists(key: string): Promise<boolean> {
    return this.space.live(key) !== undefined;
  }

  async pttl(key: string): Promise<number> {
    const e = this.space.live(key);
    if (!e) return -2;
    return e.expiresAt === undefined ? -1 : Math.max(0, e.expiresAt - Date.now());
  }

  async incrby(key: string, by: number, ttlMs?: number): Promise<number> {
    const next = this.space.incr(key, by);
    if (ttlMs && next === by) this.space.expire(key, ttlMs);
    return next;
  }

  async hget(key: string, field: string): Promise<string | null> {
    return (this.space.typed(key, 'hash')?.value as Map<string, string> | undefined)?.get(field) ?? null;
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    const m = this.space.typed(key, 'hash')?.value as Map<string, string> | undefined;
    return m ? Object.fromEntries(m) : {};
  }

  async hgetallMany(keys: string[]): Promise<Array<Record<string, string>>> {
    return Promise.all(keys.map((k) => this.hgetall(k)));
  }

  async hset(key: string, fields: Record<string, string>): Promise<void> {
    this.writes.apply({ op: 'hset', key, fields });
  }

  async smembers(key: string): Promise<string[]> {
    return [...((this.space.typed(key, 'set')?.value as Set<string> | undefined) ?? [])];
  }

  private sorted(key: string): ScoredMember[] {
    const m = this.space.typed(key, 'zset')?.value as Map<string, number> | undefined;
    if (!m) return [];
    return [...m]
      .map(([member, score]) => ({ member, score }))
      .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
  }

  async zrangeByScore(
    key: string,
    min: number,
    max: number,
    opts: RangeOptions = {},
  ): Promise<ScoredMember[]> {
    let list = this.sorted(key).filter((x) => x.score >= min && x.score <= max);
    if (opts.rev) list = list.reverse();
    const offset = opts.offset ?? 0;
    return list.slice(offset, opts.count === undefined ? undefined : offset + opts.count);
  }

  async zrange(
    key: string,
    start: number,
    stop: number,
    opts: { rev?: boolean } = {},
  ): Promise<ScoredMember[]> {
    let list = this.sorted(key);
    if (opts.rev) list = list.reverse();
    const n = list.length;
    const s = start < 0 ? Math.max(0, n + start) : start;
    const e = stop < 0 ? n + stop : Math.min(stop, n - 1);
    return s > e ? [] : list.slice(s, e + 1);
  }

  async zcount(key: string, min: number, max: number): Promise<number> {
    return this.sorted(key).filter((x) => x.score >= min && x.score <= max).length;
  }

  async zcard(key: string): Promise<number> {
    return (this.space.typed(key, 'zset')?.value as Map<string, number> | undefined)?.size ?? 0;
  }

  async zscore(key: string, member: string): Promise<number | null> {
    return (this.space.typed(key, 'zset')?.value as Map<string, number> | undefined)?.get(member) ?? null;
  }

  async zrank(key: string, member: string, opts: { rev?: boolean } = {}): Promise<number | null> {
    const list = this.sorted(key);
    const i = list.findIndex((x) => x.member === member);
    if (i < 0) return null;
    return opts.rev ? list.length - 1 - i : i;
  }

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    const list = (this.space.typed(key, 'list')?.value as string[] | undefined) ?? [];
    const n = list.length;
    const s = start < 0 ? Math.max(0, n + start) : start;
    const e = stop < 0 ? n + stop : Math.min(stop, n - 1);
    return s > e ? [] : list.slice(s, e + 1);
  }

  async lastStreamId(key: string): Promise<string | null> {
    const st = this.space.typed(key, 'stream')?.value as MemoryStream | undefined;
    return st?.entries.at(-1)?.id ?? null;
  }

  private after(key: string, afterId: string, count: number): StreamEntry[] {
    const st = this.space.typed(key, 'stream')?.value as MemoryStream | undefined;
    if (!st) return [];
    const [ms, seq] = afterId.split('-').map(Number) as [number, number];
    return st.entries.filter((x) => compareIds(x.id, ms, seq ?? 0) > 0).slice(0, count);
  }

  async streamReader(): Promise<StreamReader> {
    return eventStreamReader({
      added: this.added,
      lastStreamId: (key) => this.lastStreamId(key),
      after: async (key, afterId, count) => this.after(key, afterId, count),
    });
  }

  async lockAndRead(
    lockKey: string,
    token: string,
    ttlMs: number,
    readKey: string,
    create?: { value: string; ttlMs: number },
  ): Promise<{ acquired: boolean; value: string | null; created?: boolean }> {
    const acquired = await this.set(lockKey, token, { ttlMs, nx: true });
    const value = await this.get(readKey);
    if (acquired && value === null && create) {
      this.admitCall(readKey, lockKey);
      await this.set(readKey, create.value, { ttlMs: create.ttlMs });
      return { acquired, value: create.value, created: true };
    }
    return { acquired, value };
  }

  /** Counts a new call against the cap: drops finished calls to make room, or (lock released) refuses it. */
  private admitCall(sessionKey: string, lockKey: string): void {
    if (!this.cap) return;
    try {
      for (const key of this.cap.admit(sessionKey, lockKey, (k) => this.space.live(k) !== undefined))
        this.space.delete(key);
    } catch (err) {
      this.space.delete(lockKey);
      throw err;
    }
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

  private readonly lockWaiters = new LockWaiters();

  async releaseLock(lockKey: string, token: string): Promise<boolean> {
    const ok = (await this.atomic([{ op: 'del', key: lockKey }], [{ key: lockKey, equals: token }])).ok;
    if (ok) this.lockWaiters.wake(lockKey);
    return ok;
  }

  async waitForRelease(lockKey: string, timeoutMs: number): Promise<boolean> {
    if (!this.space.live(lockKey)) return true;
    const w = this.lockWaiters.add(lockKey, timeoutMs);
    try {
      return await w.released;
    } finally {
      w.done();
    }
  }

  private guardHolds(g: Guard): boolean {
    if ('hashField' in g) {
      const m = this.space.typed(g.key, 'hash')?.value as Map<string, string> | undefined;
      const v = m?.get(g.hashField);
      return 'absent' in g ? v === undefined : v === g.equals;
    }
    const e = this.space.live(g.key);
    if ('absent' in g) return e === undefined;
    if ('present' in g) return e !== undefined;
    return e?.kind === 'string' && e.value === g.equals;
  }

  async commitTurn(c: TurnCommit): Promise<TurnCommitOutcome> {
    const { ops, guards } = turnCommitWrites(c);
    const outcome = turnCommitOutcome(await this.atomic(ops, guards));
    if (outcome === 'ok') this.lockWaiters.wake(c.lockKey);
    return outcome;
  }

  async atomic(ops: WriteOp[], guards: Guard[] = []): Promise<AtomicResult> {
    for (let i = 0; i < guards.length; i++)
      if (!this.guardHolds(guards[i]!)) return { ok: false, failedGuard: i };
    // validate types first so a failing op cannot leave earlier ones applied
    for (const op of ops) this.writes.check(op);
    for (const op of ops) this.writes.apply(op);
    return { ok: true };
  }

  async acquireSlot(
    key: string,
    member: string,
    expiresAtMs: number,
    max: number,
  ): Promise<{ acquired: boolean; inUse: number }> {
    const now = Date.now();
    const e = this.space.ensure(key, 'zset');
    const m = e.value as Map<string, number>;
    for (const [mem, exp] of m) if (exp <= now) m.delete(mem);
    if (m.has(member) || m.size < max) {
      m.set(member, expiresAtMs);
      return { acquired: true, inUse: m.size };
    }
    return { acquired: false, inUse: m.size };
  }

  async claimDue(key: string, nowMs: number, leaseUntilMs: number, max: number): Promise<string[]> {
    const due = this.sorted(key)
      .filter((x) => x.score <= nowMs)
      .slice(0, Math.max(1, Math.floor(max)));
    const m = this.space.typed(key, 'zset')?.value as Map<string, number> | undefined;
    for (const { member } of due) m!.set(member, leaseUntilMs);
    return due.map((x) => x.member);
  }

  async releaseSlot(key: string, member: string): Promise<boolean> {
    const held = this.sorted(key).some((x) => x.member === member);
    this.writes.apply({ op: 'zrem', key, member });
    return held;
  }

  async countSlots(key: string): Promise<number> {
    const now = Date.now();
    return this.sorted(key).filter((x) => x.score > now).length;
  }

  rateLimiter(rule: RateLimitRule): RateLimiter {
    return memoryRateLimiter(this.prefix, rule);
  }

  async bulk(ops: WriteOp[]): Promise<void> {
    for (const op of ops) this.writes.apply(op);
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async memoryUsage(keys: string[]): Promise<number> {
    let bytes = 0;
    for (const key of keys) {
      const e = this.space.live(key);
      if (!e) continue;
      bytes += key.length + 48;
      if (typeof e.value === 'string') bytes += e.value.length;
      else if (Array.isArray(e.value)) for (const v of e.value) bytes += v.length + 16;
      else if (e.kind === 'stream')
        for (const x of (e.value as MemoryStream).entries)
          bytes += x.id.length + JSON.stringify(x.fields).length + 32;
      else if (e.value instanceof Set) for (const v of e.value) bytes += v.length + 16;
      else
        for (const [f, v] of e.value as Map<string, string | number>)
          bytes += f.length + String(v).length + 32;
    }
    return bytes;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
  }
}

/** Orders a stream id against `<ms>-<seq>`. */
function compareIds(id: string, ms: number, seq: number): number {
  const [a, b] = id.split('-').map(Number) as [number, number];
  return a !== ms ? a - ms : b - seq;
}
