/**
 * The call inspector's reads: an app's calls newest first (filtered, paged by a cursor), one call's
 * timeline (its summary and every turn's trace). The live feed is the FeedHub's (feed-hub.ts).
 */
import { AppError } from '../platform/index.js';
import type { TurnTrace } from '../tracing/index.js';
import type { InspectorRepository } from './inspector-repository.js';
import type { CallOutcome, CallSummary, ListQuery } from './inspector-schemas.js';

/** Index entries read per step while filling a page, and at most per request (then a cursor to go on). */
const SCAN_BATCH = 200;
const SCAN_MAX = 2_000;

/** Where a page ends: the score (start ms) of its last call and how many calls of that score were read. */
interface Position {
  s: number;
  k: number;
}
const encodeCursor = (p: Position): string => Buffer.from(JSON.stringify(p)).toString('base64url');
function decodeCursor(c: string): Position {
  try {
    const p = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as Position;
    if (Number.isFinite(p.s) && Number.isInteger(p.k) && p.k >= 0) return p;
  } catch {
    // refused below
  }
  throw AppError.badRequest('cursor is not one this service gave', 'query.cursor');
}

/** A summary hash as the API's call summary (null when the hash expired). */
export function toSummary(h: Record<string, string>): CallSummary | null {
  if (!h.callId) return null;
  const ended = h.ended as 'completed' | 'hungup' | 'error' | undefined;
  const transferred = h.transferred === '1';
  const outcome: CallOutcome = !ended
    ? 'live'
    : ended === 'error'
      ? 'error'
      : transferred
        ? 'transferred'
        : ended;
  const out: CallSummary = {
    callId: h.callId,
    startedAt: Number(h.startedAt),
    lastTurnAt: Number(h.lastTurnAt),
    turns: Number(h.turns),
    outcome,
    hasError: h.hasError === '1',
    transferred,
    lastEvent: h.lastEvent ?? '',
  };
  if (h.from) out.from = h.from;
  if (h.to) out.to = h.to;
  if (h.node) out.node = h.node;
  if (h.lang) out.lang = h.lang;
  return out;
}

const matches = (c: CallSummary, q: ListQuery): boolean =>
  (q.from === undefined || c.from === q.from) &&
  (q.outcome === undefined || c.outcome === q.outcome) &&
  (q.hasError === undefined || c.hasError === q.hasError) &&
  (q.minTurns === undefined || c.turns >= q.minTurns);

export class InspectorService {
  constructor(private readonly repo: InspectorRepository) {}

  async list(streamId: string, q: ListQuery): Promise<{ calls: CallSummary[]; nextCursor: string | null }> {
    const min = q.dateFrom ?? -Infinity;
    const start = q.cursor ? decodeCursor(q.cursor) : { s: q.dateTo ?? Infinity, k: 0 };
    if (q.dateTo !== undefined && start.s > q.dateTo) start.s = q.dateTo;
    const pos: Position = { ...start };
    const calls: CallSummary[] = [];
    let scanned = 0;
    while (scanned < SCAN_MAX) {
      const batch = await this.repo.calls(streamId, min, start.s, start.k + scanned, SCAN_BATCH);
      if (batch.length === 0) return { calls, nextCursor: null };
      const summaries = await this.repo.summaries(
        streamId,
        batch.map((b) => b.callId),
      );
      for (let i = 0; i < batch.length; i++) {
        const { startedAt } = batch[i]!;
        scanned++;
        if (startedAt === pos.s) pos.k++;
        else {
          pos.s = startedAt;
          pos.k = 1;
        }
        const summary = toSummary(summaries[i]!);
        if (summary && matches(summary, q)) calls.push(summary);
        if (calls.length === q.limit) return { calls, nextCursor: encodeCursor(pos) };
      }
      if (batch.length < SCAN_BATCH) return { calls, nextCursor: null };
    }
    return { calls, nextCursor: encodeCursor(pos) };
  }

  async timeline(streamId: string, callId: string): Promise<{ call: CallSummary; turns: TurnTrace[] }> {
    const [[hash], turns] = await Promise.all([
      this.repo.summaries(streamId, [callId]),
      this.repo.traces(streamId, callId),
    ]);
    const call = toSummary(hash ?? {});
    if (!call) throw AppError.notFound('No trace of this call (unknown, or older than CALL_TRACE_TTL_S)');
    return { call, turns };
  }
}
