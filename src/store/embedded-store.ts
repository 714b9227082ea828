/**
 * The embedded durable store as the service uses it: the SQLite store of a data directory
 * (sqlite-store.ts) run on a worker thread of its own (embedded-store-worker.ts), with this class on
 * the event loop answering the port by messages to it. better-sqlite3 is synchronous, so on the
 * event loop its statements, group commits and the disk's waits held up every request; on the
 * worker they run beside it, as Redis's work runs beside the service (docs/storage.md).
 *
 * What it keeps: calls are posted in the order they are made and the worker runs them in that
 * order, so a write made without waiting is seen by every later read, as on the other stores. A
 * write is answered after its group commit is in the log, as before. Rate windows and the blocking
 * stream readers live on this side; the worker's answers carry the keys of streams that got
 * entries, which wake those readers. One process owns a data directory.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type {
  AtomicResult,
  Guard,
  RateLimitRule,
  RateLimiter,
  RangeOptions,
  ScoredMember,
  Store,
  StreamEntry,
  StreamReader,
  TurnCommit,
  TurnCommitOutcome,
  WriteOp,
} from './store-port.js';
import type {
  CarriedError,
  EmbeddedCall,
  EmbeddedDatabaseInfo,
  EmbeddedReply,
  EmbeddedRequest,
  EmbeddedWorkerData,
} from './embedded-store-protocol.js';
import type { SqliteStoreOptions } from './sqlite-store.js';
import { NewerDataError } from './sqlite-database.js';
import { memoryRateLimiter } from './rate-limiter-adapter.js';
import { eventStreamReader } from './event-stream-reader.js';

/** The message of every call refused once the worker stopped (isStoreUnavailable knows it). */
const STOPPED = 'the embedded store is not ready';

function rebuilt(c: CarriedError): Error {
  if (c.name === 'NewerDataError' && c.file !== undefined && c.found !== undefined)
    return new NewerDataError(c.file, c.found);
  const Kind = c.name === 'TypeError' ? TypeError : c.name === 'RangeError' ? RangeError : Error;
  const err = new Kind(c.message) as Error & { code?: string };
  err.name = c.name;
  if (c.code !== undefined) err.code = c.code;
  return err;
}

/**
 * The worker, started from the compiled file next to this one, or, when this runs from the sources
 * (tsx, vitest), from the TypeScript file through tsx's loader, registered in the worker first.
 */
function startWorker(data: EmbeddedWorkerData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts'))
    return new Worker(new URL('./embedded-store-worker.js', here), { workerData: data });
  const loader = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./embedded-store-worker.ts', here).href;
  const boot = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData: data });
}

/** The worker's first answer: the file it opened, or why it could not (then the thread ends). */
function opened(worker: Worker): Promise<EmbeddedDatabaseInfo> {
  return new Promise<EmbeddedDatabaseInfo>((resolve, reject) => {
    const settle = (err: Error | undefined, info?: EmbeddedDatabaseInfo) => {
      worker.off('message', onMessage).off('error', settle).off('exit', onExit);
      if (err) reject(err);
      else resolve(info!);
    };
    const onMessage = (m: EmbeddedReply) => {
      if ('ready' in m) settle(undefined, m.ready);
      else if ('failed' in m) settle(rebuilt(m.failed));
    };
    const onExit = (code: number) => settle(new Error(`the embedded store's thread exited (code ${code})`));
    worker.on('message', onMessage).on('error', settle).on('exit', onExit);
  });
}

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  readonly atomicAcrossSlots = true;
  private readonly pending = new Map<number, Pending>();
  private readonly added = new EventEmitter().setMaxListeners(0);
  private nextId = 1;
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly worker: Worker,
    /** The data directory's file as opened: its path, the version found, the copy a migration kept. */
    readonly database: EmbeddedDatabaseInfo,
    private readonly prefix: string,
    private readonly onFailure?: (err: Error) => void,
  ) {
    worker.on('message', (m: EmbeddedReply) => this.answered(m));
    worker.on('error', (err) => this.stop(err.message));
    worker.on('exit', (code) => this.stop(`its thread exited (code ${code})`));
  }

  /** Opens (or creates) the store of a data directory on a worker thread; see sqlite-database.ts. */
  static async open(
    opts: Omit<SqliteStoreOptions, 'onStreamAdded'> & {
      /** Told when the thread stops without a close (every call fails from then on). */
      onFailure?: (err: Error) => void;
    },
  ): Promise<EmbeddedStore> {
    const prefix = opts.prefix ?? '';
    const worker = startWorker({ dir: opts.dir, prefix, syncMs: opts.syncMs ?? 1_000 });
    try {
      const info = await opened(worker);
      return new EmbeddedStore(worker, info, prefix, opts.onFailure);
    } catch (err) {
      await worker.terminate();
      throw err;
    }
  }

  private answered(m: EmbeddedReply): void {
    if (!('id' in m)) return;
    const p = this.pending.get(m.id);
    this.pending.delete(m.id);
    if (p) {
      if ('e' in m) p.reject(rebuilt(m.e));
      else p.resolve(m.r);
    }
    if (m.added) for (const key of m.added) this.added.emit(key);
  }

  private stop(why: string): void {
    if (this.stopped) return;
    this.stopped = new Error(`${STOPPED}: ${why}`);
    for (const p of this.pending.values()) p.reject(this.stopped);
    this.pending.clear();
    if (!this.closing) this.onFailure?.(this.stopped);
  }

  private call<T>(m: EmbeddedCall, ...a: unknown[]): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, m, a } satisfies EmbeddedRequest);
    });
  }

  get(key: string): Promise<string | null> {
    return this.call('get', key);
  }
  mget(keys: string[]): Promise<Array<string | null>> {
    return this.call('mget', keys);
  }
  set(key: string, value: string, opts?: { ttlMs?: number; nx?: boolean }): Promise<boolean> {
    return this.call('set', key, value, opts);
  }
  del(keys: string[]): Promise<number> {
    return this.call('del', keys);
  }
  exists(key: string): Promise<boolean> {
    return this.call('exists', key);
  }
  pttl(key: string): Promise<number> {
    return this.call('pttl', key);
  }
  incrby(key: string, by: number, ttlMs?: number): Promise<number> {
    return this.call('incrby', key, by, ttlMs);
  }
  hget(key: string, field: string): Promise<string | null> {
    return this.call('hget', key, field);
  }
  hgetall(key: string): Promise<Record<string, string>> {
    return this.call('hgetall', key);
  }
  hgetallMany(keys: string[]): Promise<Array<Record<string, string>>> {
    return this.call('hgetallMany', keys);
  }
  async hset(key: string, fields: Record<string, string>): Promise<void> {
    await this.call('hset', key, fields);
  }
  smembers(key: string): Promise<string[]> {
    return this.call('smembers', key);
  }
  zrangeByScore(key: string, min: number, max: number, opts?: RangeOptions): Promise<ScoredMember[]> {
    return this.call('zrangeByScore', key, min, max, opts);
  }
  zrange(key: string, start: number, stop: number, opts?: { rev?: boolean }): Promise<ScoredMember[]> {
    return this.call('zrange', key, start, stop, opts);
  }
  zcount(key: string, min: number, max: number): Promise<number> {
    return this.call('zcount', key, min, max);
  }
  zcard(key: string): Promise<number> {
    return this.call('zcard', key);
  }
  zscore(key: string, member: string): Promise<number | null> {
    return this.call('zscore', key, member);
  }
  zrank(key: string, member: string, opts?: { rev?: boolean }): Promise<number | null> {
    return this.call('zrank', key, member, opts);
  }
  lrange(key: string, start: number, stop: number): Promise<string[]> {
    return this.call('lrange', key, start, stop);
  }
  lastStreamId(key: string): Promise<string | null> {
    return this.call('lastStreamId', key);
  }

  async streamReader(): Promise<StreamReader> {
    return eventStreamReader({
      added: this.added,
      lastStreamId: (key) => this.lastStreamId(key),
      after: (key, afterId, count) => this.call<StreamEntry[]>('streamAfter', key, afterId, count),
    });
  }

  lockAndRead(
    lockKey: string,
    token: string,
    ttlMs: number,
    readKey: string,
    create?: { value: string; ttlMs: number },
  ): Promise<{ acquired: boolean; value: string | null; created?: boolean }> {
    return this.call('lockAndRead', lockKey, token, ttlMs, readKey, create);
  }
  writeHeld(
    lockKey: string,
    token: string,
    key: string,
    value: string,
    ttlMs: number,
    then: { release: true } | { extendMs: number },
  ): Promise<boolean> {
    return this.call('writeHeld', lockKey, token, key, value, ttlMs, then);
  }
  /** Posts the commit's declared fields only: a caller's object may carry more (a callback is not cloneable). */
  commitTurn(c: TurnCommit): Promise<TurnCommitOutcome> {
    const { lockKey, token, sessionKey, session, ttlMs, idle, extra } = c;
    const posted: TurnCommit = {
      lockKey,
      token,
      sessionKey,
      session,
      ttlMs,
      ...(idle ? { idle } : {}),
      ...(extra ? { extra: { ops: extra.ops, guards: extra.guards } } : {}),
    };
    return this.call('commitTurn', posted);
  }
  releaseLock(lockKey: string, token: string): Promise<boolean> {
    return this.call('releaseLock', lockKey, token);
  }
  /** Waits in the worker, which wakes it where it releases the lock (one process owns the store). */
  waitForRelease(lockKey: string, timeoutMs: number): Promise<boolean> {
    return this.call('waitForRelease', lockKey, timeoutMs);
  }
  atomic(ops: WriteOp[], guards?: Guard[]): Promise<AtomicResult> {
    return this.call('atomic', ops, guards);
  }
  acquireSlot(
    key: string,
    member: string,
    expiresAtMs: number,
    max: number,
  ): Promise<{ acquired: boolean; inUse: number }> {
    return this.call('acquireSlot', key, member, expiresAtMs, max);
  }
  claimDue(key: string, nowMs: number, leaseUntilMs: number, max: number): Promise<string[]> {
    return this.call('claimDue', key, nowMs, leaseUntilMs, max);
  }
  releaseSlot(key: string, member: string): Promise<boolean> {
    return this.call('releaseSlot', key, member);
  }
  countSlots(key: string): Promise<number> {
    return this.call('countSlots', key);
  }

  /** Rate windows are kept in memory: they start afresh after a restart (docs/storage.md). */
  rateLimiter(rule: RateLimitRule): RateLimiter {
    return memoryRateLimiter(this.prefix, rule);
  }

  deletePrefix(prefix: string): Promise<number> {
    return this.call('deletePrefix', prefix);
  }
  async bulk(ops: WriteOp[]): Promise<void> {
    await this.call('bulk', ops);
  }
  async ping(): Promise<boolean> {
    return this.stopped ? false : this.call<boolean>('ping');
  }
  memoryUsage(keys: string[]): Promise<number> {
    return this.call('memoryUsage', keys);
  }

  /** The live keys (logical names) under `prefix` and what each holds (data export). */
  listKeys(prefix: string): Promise<Array<{ key: string; kind: string }>> {
    return this.call('listKeys', prefix);
  }
  /** A value of the data directory itself (not a key of the port), e.g. the sealed admin token. */
  readMeta(name: string): Promise<string | null> {
    return this.call('readMeta', name);
  }
  /** Keeps `value` under `name` unless one is kept already; answers the one kept. */
  keepMeta(name: string, value: string): Promise<string> {
    return this.call('keepMeta', name, value);
  }

  /** Commits what is pending, closes the file (its log folded in) and ends the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.stopped) {
        const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
        await this.call('close').catch(() => undefined);
        this.stop('closed');
        // the thread ends once its loop is empty; a waiter's timer left in it must not hold the close
        const timer = setTimeout(() => void this.worker.terminate(), 2_000);
        await exited;
        clearTimeout(timer);
      }
    })();
    return this.closing;
  }
}
