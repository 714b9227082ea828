/**
 * The only history file that touches the store. Writes are one `atomic` per recorded batch of an
 * app; reads are range queries with LIMIT on sorted sets, counts, membership checks, and one
 * pipelined hgetallMany of a page's messages.
 */
import type { AtomicResult, Guard, ScoredMember, Store, WriteOp } from '../store/index.js';
import { historyLayout } from './history-layout.js';

/** An inclusive score window in ms (±Infinity for open ends). */
export interface Window {
  lo: number;
  hi: number;
}
export type Order = 'asc' | 'desc';
/** A position in a read: entries strictly after (score, member) in the read's order. */
export interface Cursor {
  score: number;
  member: string;
}

const before = (a: ScoredMember, b: ScoredMember): number =>
  a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0);
export const compareIn =
  (order: Order) =>
  (a: ScoredMember, b: ScoredMember): number =>
    order === 'asc' ? before(a, b) : before(b, a);

export class HistoryRepository {
  constructor(private readonly store: Store) {}

  // ---- writes ----

  /** Ids of these messages that are already stored. */
  async existing(streamId: string, ids: string[]): Promise<Set<string>> {
    const found = await Promise.all(
      ids.map((id) => this.store.hget(historyLayout.messageKey(streamId, id), 'id')),
    );
    return new Set(ids.filter((_, i) => found[i] !== null));
  }

  sessionMetas(streamId: string, sessionIds: string[]): Promise<Array<Record<string, string>>> {
    return this.store.hgetallMany(sessionIds.map((s) => historyLayout.metaKey(streamId, s)));
  }

  apply(ops: WriteOp[], guards: Guard[]): Promise<AtomicResult> {
    return this.store.atomic(ops, guards);
  }

  // ---- index reads ----

  async count(keys: string[], w: Window): Promise<number> {
    if (w.lo > w.hi) return 0;
    const counts = await Promise.all(keys.map((k) => this.store.zcount(k, w.lo, w.hi)));
    return counts.reduce((a, b) => a + b, 0);
  }

  /**
   * Up to `count` entries of the union of `keys` within the window, in order, strictly after the
   * cursor when one is given: per key one LIMITed range read (plus one for ties at the cursor's ms).
   */
  async range(
    keys: string[],
    w: Window,
    order: Order,
    count: number,
    cursor?: Cursor,
  ): Promise<ScoredMember[]> {
    if (count <= 0) return [];
    const rev = order === 'desc';
    const reads: Array<Promise<ScoredMember[]>> = [];
    for (const key of keys) {
      if (!cursor) {
        if (w.lo <= w.hi) reads.push(this.store.zrangeByScore(key, w.lo, w.hi, { rev, count }));
        continue;
      }
      const s = cursor.score;
      if (s >= w.lo && s <= w.hi) {
        reads.push(
          this.store
            .zrangeByScore(key, s, s)
            .then((ties) => ties.filter((t) => (rev ? t.member < cursor.member : t.member > cursor.member))),
        );
      }
      const lo = rev ? w.lo : Math.max(w.lo, s + 1);
      const hi = rev ? Math.min(w.hi, s - 1) : w.hi;
      if (lo <= hi) reads.push(this.store.zrangeByScore(key, lo, hi, { rev, count }));
    }
    const all = (await Promise.all(reads)).flat();
    return all.sort(compareIn(order)).slice(0, count);
  }

  /** For each member: whether it is in at least one key of every group (an AND of ORs). */
  async inAll(groups: string[][], members: string[]): Promise<boolean[]> {
    if (groups.length === 0) return members.map(() => true);
    const checks = await Promise.all(
      members.map((m) =>
        Promise.all(
          groups.map((keys) =>
            Promise.all(keys.map((k) => this.store.zscore(k, m))).then((s) => s.some((x) => x !== null)),
          ),
        ),
      ),
    );
    return checks.map((c) => c.every(Boolean));
  }

  /** The score of the session at `offset` in a session set (within the window, in order). */
  async sessionAt(key: string, w: Window, order: Order, offset: number): Promise<number | null> {
    const r = await this.store.zrangeByScore(key, w.lo, w.hi, { rev: order === 'desc', offset, count: 1 });
    return r[0]?.score ?? null;
  }

  // ---- message reads ----

  messages(streamId: string, ids: string[]): Promise<Array<Record<string, string>>> {
    return this.store.hgetallMany(ids.map((id) => historyLayout.messageKey(streamId, id)));
  }

  sessionIdsOf(streamId: string, ids: string[]): Promise<Array<string | null>> {
    return Promise.all(ids.map((id) => this.store.hget(historyLayout.messageKey(streamId, id), 'sessionId')));
  }

  traces(streamId: string, ids: string[]): Promise<Array<string | null>> {
    return this.store.mget(ids.map((id) => historyLayout.traceKey(streamId, id)));
  }

  async messageTime(streamId: string, msgId: string): Promise<number | null> {
    const v = await this.store.hget(historyLayout.messageKey(streamId, msgId), 'createdOn');
    return v === null ? null : Number(v);
  }
}
