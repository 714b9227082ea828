/**
 * Records conversation turns. An app's messages go to the store in ONE `atomic` (message hashes,
 * index entries, traceIds, session bookkeeping), guarded so that a message id already stored is
 * never written twice (idempotent) and so that a concurrent writer of the same session makes the
 * write re-read and retry instead of losing a session-set update. Records of one app that arrive
 * while its previous write is in flight are written together (group commit).
 */
import { AppError } from '../platform/index.js';
import { isStoreUnavailable, type Guard, type WriteOp } from '../store/index.js';
import { historyLayout, type SessionViews } from './history-layout.js';
import type { HistoryRepository } from './history-repository.js';
import { newMessageSchema, type NewMessage, type ValidMessage } from './history-schemas.js';

const MAX_ATTEMPTS = 6;
/** Records written together at most (a batch is one Lua script: Redis does nothing else meanwhile). */
const MAX_BATCH = 32;

interface Queued {
  msgs: ValidMessage[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

const isStoreFault = (err: unknown): boolean => isStoreUnavailable(err) || (err instanceof AppError && err.code === 'store_unavailable');
const META_CACHE_SIZE = 10_000;

/** A session meta as last written or read, and its parsed form (built when first needed). */
interface CachedMeta {
  fields: Record<string, string>;
  views?: SessionViews;
}

export class HistoryRecorder {
  /**
   * Session metas this process last wrote or read. A meta only grows (scopes are added, the first
   * time only moves earlier), so a cached one is a lower bound of the stored one: when it says no
   * change is needed, none is; when it says one is, the guards compare against it and a stale
   * entry fails them, and the retry reads the store. It saves a read on every turn of a call.
   */
  private readonly metaCache = new Map<string, CachedMeta>();
  /** Records waiting for their app's write in flight to finish, and the apps with one in flight. */
  private readonly queues = new Map<string, Queued[]>();
  private readonly writing = new Set<string>();

  constructor(
    private readonly repo: HistoryRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores the messages (any order, any apps); messages already stored are skipped. Resolves once
   * they are stored: concurrent calls for one app are written together (see `enqueue`).
   */
  async record(messages: NewMessage[]): Promise<void> {
    const valid = messages.map((m, i) => {
      const r = newMessageSchema.safeParse(m);
      if (!r.success) throw AppError.validation(r.error.issues.map((x) => ({ msg: x.message, path: ['messages', String(i), ...x.path.map(String)].join('.') })));
      return r.data;
    });
    return this.recordValid(valid);
  }

  /**
   * `record` without the schema check, for messages the system builds itself from input it has
   * already bounded (the IVR turn: generated ids, webhook parameters cut to their limits). The
   * type is the schema's output, so every field it fills by default must be given.
   */
  async recordValid(valid: ValidMessage[]): Promise<void> {
    // the IVR turn: one app, ids that differ (an incoming and an outgoing message)
    if (valid.length === 1 || (valid.length === 2 && valid[0]!.botId === valid[1]!.botId && valid[0]!.id !== valid[1]!.id)) {
      return this.enqueue(valid[0]!.botId, valid);
    }
    const byApp = new Map<string, ValidMessage[]>();
    const seen = new Set<string>();
    for (const m of valid) {
      const k = `${m.botId}\u0000${m.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const list = byApp.get(m.botId);
      if (list) list.push(m);
      else byApp.set(m.botId, [m]);
    }
    await Promise.all([...byApp].map(([botId, msgs]) => this.enqueue(botId, msgs)));
  }

  /**
   * Group commit per app: while one write of an app is in flight, the records that arrive wait, and
   * go together in the next one (one `atomic`, one round trip, however many calls they come from).
   * Nothing waits when nothing is in flight. A record resolves when the write holding it succeeded.
   */
  private enqueue(botId: string, msgs: ValidMessage[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(botId);
      const entry = { msgs, resolve, reject };
      if (queue) queue.push(entry);
      else this.queues.set(botId, [entry]);
      if (!this.writing.has(botId)) void this.drain(botId);
    });
  }

  private async drain(botId: string): Promise<void> {
    this.writing.add(botId);
    try {
      for (;;) {
        const queue = this.queues.get(botId);
        if (!queue || queue.length === 0) break;
        const batch = queue.splice(0, MAX_BATCH);
        if (queue.length === 0) this.queues.delete(botId);
        const fault = await this.writeBatch(botId, batch);
        if (fault !== undefined) {
          // the store failed: what waited behind this write would meet the same fault; fail it now
          // instead of holding it for another command timeout
          const waiting = this.queues.get(botId) ?? [];
          this.queues.delete(botId);
          for (const e of waiting) e.reject(fault.err);
        }
      }
    } finally {
      this.writing.delete(botId);
    }
  }

  /**
   * Settles every record of the batch: one optimistic write for all of them, and when a guard
   * refuses it (a message already stored, a session meta changed) or two records share a message,
   * each record on its own with retries. Answers the store fault, if one was met.
   */
  private async writeBatch(botId: string, batch: Queued[]): Promise<{ err: unknown } | undefined> {
    const all = batch.flatMap((e) => e.msgs);
    if (batch.length > 1 && new Set(all.map((m) => m.id)).size === all.length) {
      try {
        if (await this.attempt(botId, all, 1)) {
          for (const e of batch) e.resolve();
          return undefined;
        }
      } catch (err) {
        for (const e of batch) e.reject(err);
        return { err };
      }
    }
    const results = await Promise.allSettled(batch.map((e) => this.recordForApp(botId, e.msgs)));
    results.forEach((r, i) => (r.status === 'fulfilled' ? batch[i]!.resolve() : batch[i]!.reject(r.reason)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && isStoreFault(r.reason));
    return failed ? { err: failed.reason } : undefined;
  }

  private async recordForApp(botId: string, msgs: ValidMessage[]): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (await this.attempt(botId, msgs, attempt)) return;
      // another writer got there first (same message or same session): re-read and retry
      if (attempt > 1) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * attempt)));
    }
    throw AppError.storeUnavailable();
  }

  /** One write of `msgs`; false when a guard refused it. The first attempt is optimistic, later ones read first. */
  private async attempt(botId: string, msgs: ValidMessage[], attempt: number): Promise<boolean> {
    const stored = attempt === 1 ? new Set<string>() : await this.repo.existing(botId, msgs.map((m) => m.id));
    const fresh = stored.size === 0 ? msgs : msgs.filter((m) => !stored.has(m.id));
    if (fresh.length === 0) return true;
    // the messages of each session, in one pass (a batch holds one or two messages of many calls)
    const bySession = new Map<string, ValidMessage[]>();
    for (const m of fresh) {
      const own = bySession.get(m.sessionId);
      if (own) own.push(m);
      else bySession.set(m.sessionId, [m]);
    }
    const sessions = [...bySession.keys()];
    const metas = await this.metasFor(botId, sessions, attempt === 1);
    const now = this.now();
    const ops: WriteOp[] = [];
    // first guard: the app still exists (a turn still running while its app is deleted writes nothing)
    const guards: Guard[] = [{ key: historyLayout.appKey(botId), present: true }];
    for (const m of fresh) {
      for (const op of historyLayout.messageOps(m, now)) ops.push(op);
      guards.push({ key: historyLayout.messageKey(botId, m.id), hashField: 'id', absent: true });
    }
    const changed: Array<{ sessionId: string; meta: Record<string, string> }> = [];
    sessions.forEach((sessionId, i) => {
      const own = bySession.get(sessionId)!;
      const meta = metas[i] ?? { fields: {} };
      // a known session whose bookkeeping already covers these messages: nothing to write or guard
      if (meta.views && historyLayout.sessionCovers(meta.views, own)) return;
      const s = historyLayout.sessionOps(botId, sessionId, meta.fields, own);
      ops.push(...s.ops);
      guards.push(...s.guards);
      changed.push({ sessionId, meta: meta.fields });
    });
    const r = await this.repo.apply(ops, guards);
    if (!r.ok) {
      if (r.failedGuard === 0) throw AppError.notFound('App not found');
      return false;
    }
    for (const c of changed) this.remember(botId, c.sessionId, c.meta, ops);
    return true;
  }

  /**
   * The first attempt uses the cached metas, and an empty one for a session this process has not
   * seen (a new call's first turn): the guards refuse the write if the stored meta differs, and the
   * retry reads the store. Retries always read.
   */
  private async metasFor(botId: string, sessions: string[], optimistic: boolean): Promise<CachedMeta[]> {
    if (optimistic) {
      return sessions.map((s) => {
        const key = `${botId}\u0000${s}`;
        const cached = this.metaCache.get(key);
        if (!cached) return { fields: {} };
        this.metaCache.delete(key); // most recently used last: the oldest is evicted first
        this.metaCache.set(key, cached);
        cached.views ??= historyLayout.parseMeta(cached.fields);
        return cached;
      });
    }
    return (await this.repo.sessionMetas(botId, sessions)).map((fields) => ({ fields }));
  }

  /** The meta as it is after a successful write: what was read, plus the fields the write set. */
  private remember(botId: string, sessionId: string, before: Record<string, string>, ops: WriteOp[]): void {
    const metaKey = historyLayout.metaKey(botId, sessionId);
    const written = ops.find((o): o is Extract<WriteOp, { op: 'hset' }> => o.op === 'hset' && o.key === metaKey);
    const key = `${botId}\u0000${sessionId}`;
    this.metaCache.delete(key);
    if (this.metaCache.size >= META_CACHE_SIZE) this.metaCache.delete(this.metaCache.keys().next().value as string);
    this.metaCache.set(key, { fields: { ...before, ...(written?.fields ?? {}) } });
  }
}
