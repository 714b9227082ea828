/**
 * Records conversation turns. An app's messages go to the store in ONE `atomic` (message hashes,
 * index entries, traceIds, session bookkeeping), guarded so that a message id already stored is
 * never written twice (idempotent) and so that a concurrent writer of the same session makes the
 * write re-read and retry instead of losing a session-set update. Records of one app that arrive
 * while its previous write is in flight are written together (group commit). `prepare` hands the
 * same write to a caller that applies it in one step with its own (the IVR turn and its commit).
 */
import type { LRUCache } from 'lru-cache';
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

/**
 * The app of messages that are all of one app with distinct ids (nothing to group or drop: the IVR
 * turn's incoming and outgoing message), else null.
 */
function oneAppOf(valid: ValidMessage[]): string | null {
  const streamId = valid[0]?.streamId;
  if (streamId === undefined) return null;
  if (valid.length === 2)
    return valid[1]!.streamId === streamId && valid[1]!.id !== valid[0]!.id ? streamId : null;
  for (const m of valid) if (m.streamId !== streamId) return null;
  return valid.length === 1 || new Set(valid.map((m) => m.id)).size === valid.length ? streamId : null;
}

/** Session ids in the order of their first message. */
const sessionsOf = (msgs: ValidMessage[]): string[] => [...new Set(msgs.map((m) => m.sessionId))];

/** A write planned by the recorder, for a caller to apply together with its own (see `prepare`). */
export interface PreparedRecord {
  ops: WriteOp[];
  guards: Guard[];
  /** To call once the write succeeded: the recorder remembers the session metas it wrote. */
  applied: () => void;
}

interface Plan {
  ops: WriteOp[];
  guards: Guard[];
  changed: Array<{ sessionId: string; meta: Record<string, string> }>;
}

const isStoreFault = (err: unknown): boolean =>
  isStoreUnavailable(err) || (err instanceof AppError && err.code === 'store_unavailable');

/** A session meta as last written or read, and its parsed form (built when first needed). */
export interface CachedMeta {
  fields: Record<string, string>;
  views?: SessionViews;
}

/**
 * Session metas this process last wrote or read, by app and session. A meta only grows (scopes are
 * added, the first time only moves earlier), so a cached one is a lower bound of the stored one:
 * when it says no change is needed, none is; when it says one is, the guards compare against it and
 * a stale entry fails them, and the retry reads the store. It saves a read on every turn of a call.
 */
export type SessionMetaCache = LRUCache<string, CachedMeta>;

export class HistoryRecorder {
  /** Records waiting for their app's write in flight to finish, and the apps with one in flight. */
  private readonly queues = new Map<string, Queued[]>();
  private readonly writing = new Set<string>();

  constructor(
    private readonly repo: HistoryRepository,
    private readonly metaCache: SessionMetaCache,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores the messages (any order, any apps); messages already stored are skipped. Resolves once
   * they are stored: concurrent calls for one app are written together (see `enqueue`).
   */
  async record(messages: NewMessage[]): Promise<void> {
    const valid = messages.map((m, i) => {
      const r = newMessageSchema.safeParse(m);
      if (!r.success)
        throw AppError.validation(
          r.error.issues.map((x) => ({
            msg: x.message,
            path: ['messages', String(i), ...x.path.map(String)].join('.'),
          })),
        );
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
    const one = oneAppOf(valid);
    if (one !== null) return this.enqueue(one, valid);
    const byApp = new Map<string, ValidMessage[]>();
    const seen = new Set<string>();
    for (const m of valid) {
      const k = `${m.streamId}\u0000${m.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const list = byApp.get(m.streamId);
      if (list) list.push(m);
      else byApp.set(m.streamId, [m]);
    }
    await Promise.all([...byApp].map(([streamId, msgs]) => this.enqueue(streamId, msgs)));
  }

  /**
   * Group commit per app: while one write of an app is in flight, the records that arrive wait, and
   * go together in the next one (one `atomic`, one round trip, however many calls they come from).
   * Nothing waits when nothing is in flight. A record resolves when the write holding it succeeded.
   */
  private enqueue(streamId: string, msgs: ValidMessage[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(streamId);
      const entry = { msgs, resolve, reject };
      if (queue) queue.push(entry);
      else this.queues.set(streamId, [entry]);
      if (!this.writing.has(streamId)) void this.drain(streamId);
    });
  }

  private async drain(streamId: string): Promise<void> {
    this.writing.add(streamId);
    try {
      for (;;) {
        const queue = this.queues.get(streamId);
        if (!queue || queue.length === 0) break;
        const batch = queue.splice(0, MAX_BATCH);
        if (queue.length === 0) this.queues.delete(streamId);
        const fault = await this.writeBatch(streamId, batch);
        if (fault !== undefined) {
          // the store failed: what waited behind this write would meet the same fault; fail it now
          // instead of holding it for another command timeout
          const waiting = this.queues.get(streamId) ?? [];
          this.queues.delete(streamId);
          for (const e of waiting) e.reject(fault.err);
        }
      }
    } finally {
      this.writing.delete(streamId);
    }
  }

  /**
   * Settles every record of the batch: one optimistic write for all of them, and when a guard
   * refuses it (a message already stored, a session meta changed) or two records share a message,
   * each record on its own with retries. Answers the store fault, if one was met.
   */
  private async writeBatch(streamId: string, batch: Queued[]): Promise<{ err: unknown } | undefined> {
    const all = batch.flatMap((e) => e.msgs);
    if (batch.length > 1 && new Set(all.map((m) => m.id)).size === all.length) {
      try {
        if (await this.attempt(streamId, all, 1)) {
          for (const e of batch) e.resolve();
          return undefined;
        }
      } catch (err) {
        for (const e of batch) e.reject(err);
        return { err };
      }
    }
    const results = await Promise.allSettled(batch.map((e) => this.recordForApp(streamId, e.msgs)));
    results.forEach((r, i) => (r.status === 'fulfilled' ? batch[i]!.resolve() : batch[i]!.reject(r.reason)));
    const failed = results.find(
      (r): r is PromiseRejectedResult => r.status === 'rejected' && isStoreFault(r.reason),
    );
    return failed ? { err: failed.reason } : undefined;
  }

  private async recordForApp(streamId: string, msgs: ValidMessage[]): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (await this.attempt(streamId, msgs, attempt)) return;
      // another writer got there first (same message or same session): re-read and retry
      if (attempt > 1) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * attempt)));
    }
    throw AppError.storeUnavailable();
  }

  /**
   * The write of one app's messages as ops and guards, for the caller to apply in one `atomic` with
   * writes of its own (the IVR turn commits its session in the same step): the optimistic first
   * attempt of `record`, with the same guards (the app's record first, then each message absent,
   * then the session metas as cached). Null when there is nothing to write, or when the messages are
   * of several apps or repeat an id (then the caller uses `record`). When the caller's write
   * succeeds it calls `applied`; when one of these guards refused it, it calls `record` instead,
   * which reads the store and retries (a message already stored is skipped, a deleted app refused).
   */
  prepare(valid: ValidMessage[]): PreparedRecord | null {
    const streamId = oneAppOf(valid);
    if (streamId === null) return null;
    const plan = this.plan(streamId, valid, true);
    if (!plan) return null;
    return { ops: plan.ops, guards: plan.guards, applied: () => this.applied(streamId, plan) };
  }

  /** One write of `msgs`; false when a guard refused it. The first attempt is optimistic, later ones read first. */
  private async attempt(streamId: string, msgs: ValidMessage[], attempt: number): Promise<boolean> {
    let plan: Plan | null;
    if (attempt === 1) plan = this.plan(streamId, msgs, true);
    else {
      const stored = await this.repo.existing(
        streamId,
        msgs.map((m) => m.id),
      );
      const fresh = msgs.filter((m) => !stored.has(m.id));
      const metas = fresh.length ? await this.repo.sessionMetas(streamId, sessionsOf(fresh)) : [];
      plan = this.plan(streamId, fresh, false, metas);
    }
    if (!plan) return true;
    const r = await this.repo.apply(plan.ops, plan.guards);
    if (!r.ok) {
      if (r.failedGuard === 0) throw AppError.notFound('App not found');
      return false;
    }
    this.applied(streamId, plan);
    return true;
  }

  /**
   * Ops and guards that store `msgs` (distinct ids, one app). The optimistic plan uses the cached
   * metas, and an empty one for a session this process has not seen (a new call's first turn): the
   * guards refuse the write if the stored meta differs, and the retry reads the store (`metas`, in
   * the order of the sessions' first messages).
   */
  private plan(
    streamId: string,
    msgs: ValidMessage[],
    optimistic: boolean,
    metas: Array<Record<string, string>> = [],
  ): Plan | null {
    if (msgs.length === 0) return null;
    // the messages of each session, in one pass (a batch holds one or two messages of many calls)
    const bySession = new Map<string, ValidMessage[]>();
    for (const m of msgs) {
      const own = bySession.get(m.sessionId);
      if (own) own.push(m);
      else bySession.set(m.sessionId, [m]);
    }
    const now = this.now();
    const ops: WriteOp[] = [];
    // index entries together (the store sends a run of zadds as one ZADD per index), then the
    // session metas, last as before: a script that failed part-way never leaves a meta claiming
    // entries it did not write (Redis does not roll a script back). The ops touch distinct keys.
    const indexOps: WriteOp[] = [];
    const metaOps: WriteOp[] = [];
    // first guard: the app still exists (a turn still running while its app is deleted writes nothing)
    const guards: Guard[] = [{ key: historyLayout.appKey(streamId), present: true }];
    for (const m of msgs) {
      for (const op of historyLayout.messageOps(m, now)) (op.op === 'zadd' ? indexOps : ops).push(op);
      guards.push({ key: historyLayout.messageKey(streamId, m.id), hashField: 'id', absent: true });
    }
    const changed: Plan['changed'] = [];
    let i = 0;
    for (const [sessionId, own] of bySession) {
      const meta = optimistic ? this.cachedMeta(streamId, sessionId) : { fields: metas[i] ?? {} };
      i++;
      // a known session whose bookkeeping already covers these messages: nothing to write or guard
      if (meta.views && historyLayout.sessionCovers(meta.views, own)) continue;
      const s = historyLayout.sessionOps(streamId, sessionId, meta.fields, own);
      for (const op of s.ops) (op.op === 'zadd' ? indexOps : metaOps).push(op);
      for (const g of s.guards) guards.push(g);
      changed.push({ sessionId, meta: meta.fields });
    }
    for (const op of indexOps) ops.push(op);
    for (const op of metaOps) ops.push(op);
    return { ops, guards, changed };
  }

  private applied(streamId: string, plan: Plan): void {
    for (const c of plan.changed) this.remember(streamId, c.sessionId, c.meta, plan.ops);
  }

  /** A session meta as this process last wrote or read it (parsed once), or an empty one. */
  private cachedMeta(streamId: string, sessionId: string): CachedMeta {
    const key = `${streamId}\u0000${sessionId}`;
    const cached = this.metaCache.get(key);
    if (!cached) return { fields: {} };
    cached.views ??= historyLayout.parseMeta(cached.fields);
    return cached;
  }

  /** The meta as it is after a successful write: what was read, plus the fields the write set. */
  private remember(
    streamId: string,
    sessionId: string,
    before: Record<string, string>,
    ops: WriteOp[],
  ): void {
    const metaKey = historyLayout.metaKey(streamId, sessionId);
    const written = ops.find(
      (o): o is Extract<WriteOp, { op: 'hset' }> => o.op === 'hset' && o.key === metaKey,
    );
    this.metaCache.set(`${streamId}\u0000${sessionId}`, {
      fields: { ...before, ...(written?.fields ?? {}) },
    });
  }
}
