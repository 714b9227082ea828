/**
 * Records conversation turns. Each app's messages of one call go to the store in ONE `atomic`
 * (message hashes, index entries, traceIds, session bookkeeping), guarded so that a message id
 * already stored is never written twice (idempotent) and so that a concurrent writer of the same
 * session makes this batch re-read and retry instead of losing a session-set update.
 */
import { AppError } from '../platform/index.js';
import type { Guard, WriteOp } from '../store/index.js';
import { historyLayout } from './history-layout.js';
import type { HistoryRepository } from './history-repository.js';
import { newMessageSchema, type NewMessage, type ValidMessage } from './history-schemas.js';

const MAX_ATTEMPTS = 6;
const META_CACHE_SIZE = 10_000;

export class HistoryRecorder {
  /**
   * Session metas this process last wrote or read. A meta only grows (scopes are added, the first
   * time only moves earlier), so a cached one is a lower bound of the stored one: when it says no
   * change is needed, none is; when it says one is, the guards compare against it and a stale
   * entry fails them, and the retry reads the store. It saves a read on every turn of a call.
   */
  private readonly metaCache = new Map<string, Record<string, string>>();

  constructor(
    private readonly repo: HistoryRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores the messages (any order, any apps); messages already stored are skipped. */
  async record(messages: NewMessage[]): Promise<void> {
    const valid = messages.map((m, i) => {
      const r = newMessageSchema.safeParse(m);
      if (!r.success) throw AppError.validation(r.error.issues.map((x) => ({ msg: x.message, path: ['messages', String(i), ...x.path.map(String)].join('.') })));
      return r.data;
    });
    const byApp = new Map<string, ValidMessage[]>();
    const seen = new Set<string>();
    for (const m of valid) {
      const k = `${m.botId}\u0000${m.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      byApp.set(m.botId, [...(byApp.get(m.botId) ?? []), m]);
    }
    await Promise.all([...byApp].map(([botId, msgs]) => this.recordForApp(botId, msgs)));
  }

  private async recordForApp(botId: string, msgs: ValidMessage[]): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // first attempt is optimistic (the guards refuse a message that exists); retries look first
      const stored = attempt === 1 ? new Set<string>() : await this.repo.existing(botId, msgs.map((m) => m.id));
      const fresh = msgs.filter((m) => !stored.has(m.id));
      if (fresh.length === 0) return;
      const sessions = [...new Set(fresh.map((m) => m.sessionId))];
      const metas = await this.metasFor(botId, sessions, attempt === 1);
      const now = this.now();
      const ops: WriteOp[] = [];
      const guards: Guard[] = [];
      for (const m of fresh) {
        ops.push(...historyLayout.messageOps(m, now));
        guards.push({ key: historyLayout.messageKey(botId, m.id), hashField: 'id', absent: true });
      }
      sessions.forEach((sessionId, i) => {
        const s = historyLayout.sessionOps(botId, sessionId, metas[i] ?? {}, fresh.filter((m) => m.sessionId === sessionId));
        ops.push(...s.ops);
        guards.push(...s.guards);
      });
      if (await this.repo.apply(ops, guards)) {
        sessions.forEach((sessionId, i) => this.remember(botId, sessionId, metas[i] ?? {}, ops));
        return;
      }
      // another writer got there first (same message or same session): re-read and retry
      if (attempt > 1) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * attempt)));
    }
    throw AppError.storeUnavailable();
  }

  /**
   * The first attempt uses the cached metas, and an empty one for a session this process has not
   * seen (a new call's first turn): the guards refuse the write if the stored meta differs, and the
   * retry reads the store. Retries always read.
   */
  private async metasFor(botId: string, sessions: string[], optimistic: boolean): Promise<Array<Record<string, string>>> {
    if (optimistic) return sessions.map((s) => this.metaCache.get(`${botId}\u0000${s}`) ?? {});
    return this.repo.sessionMetas(botId, sessions);
  }

  /** The meta as it is after a successful write: what was read, plus the fields the write set. */
  private remember(botId: string, sessionId: string, before: Record<string, string>, ops: WriteOp[]): void {
    const metaKey = historyLayout.metaKey(botId, sessionId);
    const written = ops.find((o): o is Extract<WriteOp, { op: 'hset' }> => o.op === 'hset' && o.key === metaKey);
    const key = `${botId}\u0000${sessionId}`;
    this.metaCache.delete(key);
    if (this.metaCache.size >= META_CACHE_SIZE) this.metaCache.delete(this.metaCache.keys().next().value as string);
    this.metaCache.set(key, { ...before, ...(written?.fields ?? {}) });
  }
}
