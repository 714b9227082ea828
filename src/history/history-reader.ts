/**
 * Reads one page of history through the indexes, never by scanning every message.
 *
 * A request becomes an AND of terms, each an OR of index keys (history-layout.ts): the user (or
 * callId) identity index, the listed sessions' indexes, one index per tag, or else the app's index;
 * every key is already restricted to the channelType and to the version's task classes.
 * - One term (the common case: user, session(s), callId, one tag, or the whole app): the page is a
 *   LIMITed range read per key, `total` is ZCOUNT over the window: index-only, O(log n + page).
 * - Several terms: the smallest one (by ZCOUNT in the window) drives; its entries are checked
 *   against the other terms with ZSCORE, chunk by chunk, at most `scanBudget` entries per page.
 *   `total` is exact when the driver holds at most `countBudget` entries in the window, otherwise
 *   extrapolated from the first `countBudget` (matches / checked × driver count).
 *
 * skip/offset counts sessions. With one user, callId or the app term, the session sets (scored by a
 * session's first message) give the boundary in one or two LIMITed reads; with a session list,
 * the skipped sessions are dropped from the list; otherwise matches are walked counting sessions
 * (bounded by `scanBudget`). A page holds whole sessions: when the limit cuts the page's last
 * session and the page holds others, that session moves entirely to the next page, so paging with
 * skip += (sessions in the page) neither loses nor repeats messages. A single session longer than
 * the limit is cut at the limit; read on with msgId.
 */
import { AppError } from '../platform/index.js';
import type { ScoredMember } from '../store/index.js';
import { historyLayout, type Scope, type SessionScope } from './history-layout.js';
import type { HistoryQuery } from './history-params.js';
import {
  compareIn,
  type Cursor,
  type HistoryRepository,
  type Order,
  type Window,
} from './history-repository.js';

interface Term {
  keys: string[];
  /** For a session list: the keys of each session (used by skip). */
  sessions?: Array<{ id: string; keys: string[] }>;
}
type SkipBy = { kind: 'set'; key: string } | { kind: 'list' } | { kind: 'scan' };

export interface ReaderBudgets {
  /** Driver entries checked per page (and walked for skip) when several terms intersect. */
  scanBudget: number;
  /** Driver entries checked to count `total` exactly when several terms intersect. */
  countBudget: number;
}

export interface PageRead {
  rows: Array<Record<string, string>>;
  total: number;
  moreAvailable: boolean;
}

const ALL: Window = { lo: -Infinity, hi: Infinity };
const EMPTY = Symbol('empty');

export class HistoryReader {
  constructor(
    private readonly repo: HistoryRepository,
    private readonly budgets: ReaderBudgets = { scanBudget: 10_000, countBudget: 20_000 },
  ) {}

  async read(streamId: string, q: HistoryQuery): Promise<PageRead> {
    const { terms, skipBy } = this.plan(streamId, q);
    const window = q.anchor ? ALL : q.window;
    const counts =
      terms.length === 1 ? null : await Promise.all(terms.map((t) => this.repo.count(t.keys, window)));
    const totalP = counts
      ? this.countMatches(terms, counts, window)
      : this.repo.count(terms[0]!.keys, window);
    const pageP = q.anchor
      ? this.aroundAnchor(streamId, q, terms, counts)
      : this.windowPage(streamId, q, terms, counts, skipBy);
    const [total, page] = await Promise.all([totalP, pageP]);
    return { total, ...page };
  }

  private plan(streamId: string, q: HistoryQuery): { terms: Term[]; skipBy: SkipBy } {
    const keys = (scope: Scope) => historyLayout.indexKeys(streamId, q.channel, q.version, scope);
    const terms: Term[] = [];
    if (q.userId) terms.push({ keys: keys({ kind: 'user', id: q.userId }) });
    if (q.callId && q.callId !== q.userId) terms.push({ keys: keys({ kind: 'user', id: q.callId }) });
    if (q.sessionIds) {
      const sessions = q.sessionIds.map((id) => ({ id, keys: keys({ kind: 'session', id }) }));
      terms.push({ keys: sessions.flatMap((s) => s.keys), sessions });
    }
    for (const [key, value] of Object.entries(q.tags ?? {}))
      terms.push({ keys: keys({ kind: 'tag', key, value }) });
    if (terms.length === 0) terms.push({ keys: keys({ kind: 'all' }) });
    let skipBy: SkipBy;
    if (terms.length > 1 || (q.tags && !q.userId && !q.callId)) skipBy = { kind: 'scan' };
    else if (q.sessionIds) skipBy = { kind: 'list' };
    else {
      const id = q.userId ?? q.callId;
      const scope: SessionScope = id ? `u:${id}` : 'all';
      skipBy = { kind: 'set', key: historyLayout.sessionSetKey(streamId, q.channel, q.version, scope) };
    }
    return { terms, skipBy };
  }

  // ---- pages ----

  private async windowPage(
    streamId: string,
    q: HistoryQuery,
    terms: Term[],
    counts: number[] | null,
    skipBy: SkipBy,
  ) {
    const start = q.skip > 0 ? await this.skip(streamId, q, terms, counts, skipBy) : { w: q.window, terms };
    if (start === EMPTY) return { rows: [], moreAvailable: false };
    const got = await this.collect(
      start.terms,
      counts,
      start.w,
      q.order,
      q.limit + 1,
      'cursor' in start ? start.cursor : undefined,
    );
    const rows = await this.load(streamId, got.matches);
    const page = rows.slice(0, q.limit);
    const extra = rows[q.limit];
    const last = page[page.length - 1];
    if (
      extra &&
      last &&
      extra.sessionId === last.sessionId &&
      new Set(page.map((r) => r.sessionId)).size > 1
    ) {
      // the limit cuts the last session: it moves whole to the next page
      return { rows: page.filter((r) => r.sessionId !== last.sessionId), moreAvailable: true };
    }
    return { rows: page, moreAvailable: got.matches.length > q.limit || got.budgetStopped };
  }

  private async aroundAnchor(streamId: string, q: HistoryQuery, terms: Term[], counts: number[] | null) {
    const { msgId, direction } = q.anchor!;
    const score = await this.repo.messageTime(streamId, msgId);
    if (score === null) throw AppError.notFound('Message not found (msgId)');
    const cursor: Cursor = { score, member: msgId };
    let ids: ScoredMember[];
    let more: boolean;
    if (direction !== 0) {
      const got = await this.collect(terms, counts, ALL, direction > 0 ? 'asc' : 'desc', q.limit + 1, cursor);
      ids = got.matches.slice(0, q.limit);
      more = got.matches.length > q.limit || got.budgetStopped;
    } else {
      const [anchorIn] = await this.repo.inAll(
        terms.map((t) => t.keys),
        [msgId],
      );
      const n = q.limit - (anchorIn ? 1 : 0);
      const [older, newer] = await Promise.all([
        this.collect(terms, counts, ALL, 'desc', n + 1, cursor),
        this.collect(terms, counts, ALL, 'asc', n + 1, cursor),
      ]);
      const half = Math.floor(n / 2);
      const takeOld = Math.min(older.matches.length, half + Math.max(0, n - half - newer.matches.length));
      const takeNew = Math.min(newer.matches.length, n - takeOld);
      ids = [
        ...older.matches.slice(0, takeOld),
        ...(anchorIn ? [cursor] : []),
        ...newer.matches.slice(0, takeNew),
      ];
      more =
        older.matches.length > takeOld ||
        newer.matches.length > takeNew ||
        older.budgetStopped ||
        newer.budgetStopped;
    }
    ids.sort(compareIn(q.order));
    return { rows: await this.load(streamId, ids), moreAvailable: more };
  }

  private async load(streamId: string, ids: ScoredMember[]): Promise<Array<Record<string, string>>> {
    const rows = await this.repo.messages(
      streamId,
      ids.map((m) => m.member),
    );
    return rows.filter((r) => r.id !== undefined);
  }

  // ---- matching ----

  /** Matches of the terms after the cursor, in order, chunk by chunk (driver = smallest term). */
  private async *chunks(
    terms: Term[],
    counts: number[] | null,
    w: Window,
    order: Order,
    size: number,
    cursor?: Cursor,
  ) {
    let d = 0;
    if (counts) for (let i = 1; i < counts.length; i++) if (counts[i]! < counts[d]!) d = i;
    const driver = terms[d]!;
    const others = terms.filter((_, i) => i !== d).map((t) => t.keys);
    let cur = cursor;
    for (;;) {
      const chunk = await this.repo.range(driver.keys, w, order, size, cur);
      if (chunk.length === 0) return;
      const ok = await this.repo.inAll(
        others,
        chunk.map((c) => c.member),
      );
      yield { matches: chunk.filter((_, i) => ok[i]), scanned: chunk.length };
      if (chunk.length < size) return;
      cur = chunk[chunk.length - 1];
    }
  }

  private async collect(
    terms: Term[],
    counts: number[] | null,
    w: Window,
    order: Order,
    want: number,
    cursor?: Cursor,
  ) {
    const single = terms.length === 1;
    const size = single ? want : Math.min(2_000, this.budgets.scanBudget, Math.max(200, want * 2));
    const matches: ScoredMember[] = [];
    let scanned = 0;
    let budgetStopped = false;
    for await (const c of this.chunks(terms, counts, w, order, size, cursor)) {
      matches.push(...c.matches);
      scanned += c.scanned;
      if (matches.length >= want) break;
      if (!single && scanned >= this.budgets.scanBudget) {
        budgetStopped = true;
        break;
      }
    }
    return { matches: matches.slice(0, want), budgetStopped };
  }

  private async countMatches(terms: Term[], counts: number[], w: Window): Promise<number> {
    const driverCount = Math.min(...counts);
    if (driverCount === 0) return 0;
    let matched = 0;
    let scanned = 0;
    for await (const c of this.chunks(terms, counts, w, 'desc', Math.min(2_000, this.budgets.countBudget))) {
      matched += c.matches.length;
      scanned += c.scanned;
      if (scanned >= this.budgets.countBudget) break;
    }
    return scanned >= driverCount || scanned === 0 ? matched : Math.round((matched / scanned) * driverCount);
  }

  // ---- skip (sessions) ----

  private async skip(streamId: string, q: HistoryQuery, terms: Term[], counts: number[] | null, by: SkipBy) {
    const w = q.window;
    const n = q.skip;
    if (by.kind === 'set') {
      if (q.order === 'desc') {
        // the n-th newest session that started by the window's end: read below its first message
        const start = await this.repo.sessionAt(by.key, { lo: -Infinity, hi: w.hi }, 'desc', n - 1);
        if (start === null || start - 1 < w.lo) return EMPTY;
        return { w: { lo: w.lo, hi: start - 1 }, terms };
      }
      // oldest first: a session that started before the window but has messages in it counts first
      const first = (await this.repo.sessionAt(by.key, w, 'asc', 0)) ?? Infinity;
      const straddles =
        first > w.lo &&
        (await this.repo.count(terms[0]!.keys, { lo: w.lo, hi: Math.min(first - 1, w.hi) })) > 0;
      const start = await this.repo.sessionAt(by.key, w, 'asc', n - (straddles ? 1 : 0));
      if (start === null) return EMPTY;
      return { w: { lo: start, hi: w.hi }, terms };
    }
    if (by.kind === 'list') {
      const sessions = terms[0]!.sessions!;
      const firsts = await Promise.all(sessions.map((s) => this.repo.range(s.keys, w, q.order, 1)));
      const present = sessions
        .map((s, i) => ({ s, first: firsts[i]![0] }))
        .filter((x) => x.first !== undefined);
      present.sort((a, b) => compareIn(q.order)(a.first!, b.first!));
      const kept = present.slice(n).map((x) => x.s);
      if (kept.length === 0) return EMPTY;
      return { w, terms: [{ keys: kept.flatMap((s) => s.keys), sessions: kept }] };
    }
    // walk the matches, counting sessions, until the (n+1)-th session begins
    const seen = new Set<string>();
    let prev: ScoredMember | undefined;
    let walked = 0;
    for await (const c of this.chunks(terms, counts, w, q.order, Math.min(500, this.budgets.scanBudget))) {
      const sessions = await this.repo.sessionIdsOf(
        streamId,
        c.matches.map((m) => m.member),
      );
      for (let i = 0; i < c.matches.length; i++) {
        const s = sessions[i] ?? '';
        if (!seen.has(s)) {
          if (seen.size === n) return { w, terms, cursor: prev };
          seen.add(s);
        }
        prev = c.matches[i];
      }
      walked += c.scanned;
      if (walked >= this.budgets.scanBudget) {
        throw AppError.badRequest(
          `skip/offset reaches past ${this.budgets.scanBudget} messages for this combination of filters; narrow dateFrom/dateTo or page with msgId`,
        );
      }
    }
    return EMPTY;
  }
}
