/**
 * The call inspector's reads: an app's calls newest first (filtered, paged by a cursor), one call's
 * timeline (its summary and every turn's trace) and the live feed of traced turns as Server-Sent
 * Events, resumable from the last event id a client saw (the feed is in the store: any instance
 * serves it, and it outlives an instance's restart).
 */
import { AppError } from '../platform/index.js';
import type { CallSummaryUpdate, TurnTrace } from '../ivr/index.js';
import type { StreamEntry } from '../store/index.js';
import type { InspectorRepository } from './inspector-repository.js';
import type { CallOutcome, CallSummary, ListQuery } from './inspector-schemas.js';

/** Index entries read per step while filling a page, and at most per request (then a cursor to go on). */
const SCAN_BATCH = 200;
const SCAN_MAX = 2_000;
/** A feed with nothing to send writes a comment this often (keeps proxies from closing it). */
export const HEARTBEAT_MS = 15_000;

/** One event of the live feed. */
interface FeedEvent {
  callId: string;
  trace: Omit<TurnTrace, 'document'> & { document: { kind: TurnTrace['document']['kind'] } } | { callId: string; turn: number; receivedAt: number };
  summary: CallSummaryUpdate;
}

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
  const outcome: CallOutcome = !ended ? 'live' : ended === 'error' ? 'error' : transferred ? 'transferred' : ended;
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
      const summaries = await this.repo.summaries(streamId, batch.map((b) => b.callId));
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
    const [[hash], turns] = await Promise.all([this.repo.summaries(streamId, [callId]), this.repo.traces(streamId, callId)]);
    const call = toSummary(hash ?? {});
    if (!call) throw AppError.notFound('No trace of this call (unknown, or older than CALL_TRACE_TTL_S)');
    return { call, turns };
  }

  /**
   * The feed as SSE text: every traced turn after `lastEventId` (none: from now on), as
   * `id: <stream id>` / `event: turn` / `data: <json>`, with a heartbeat comment when nothing came
   * for HEARTBEAT_MS. Ends when `signal` aborts.
   */
  async *feed(streamId: string, opts: { lastEventId?: string; callId?: string; signal: AbortSignal; heartbeatMs?: number }): AsyncGenerator<string> {
    const reader = await this.repo.feedReader();
    const stop = () => void reader.close();
    opts.signal.addEventListener('abort', stop);
    try {
      let after = opts.lastEventId ?? (await this.repo.feedHead(streamId));
      yield `retry: 2000\n: feed of ${streamId} after ${after}\n\n`;
      while (!opts.signal.aborted) {
        let entries;
        try {
          entries = await this.repo.readFeed(reader, streamId, after, opts.heartbeatMs ?? HEARTBEAT_MS);
        } catch (err) {
          if (opts.signal.aborted) return;
          throw err;
        }
        if (entries.length === 0) {
          yield ': heartbeat\n\n';
          continue;
        }
        after = entries.at(-1)!.id;
        const wanted = opts.callId === undefined ? entries : entries.filter((e) => e.fields.c === opts.callId);
        let out = '';
        for (const { id, data } of await this.feedEvents(streamId, wanted)) out += `id: ${id}\nevent: turn\ndata: ${JSON.stringify(data)}\n\n`;
        if (out) yield out;
      }
    } finally {
      opts.signal.removeEventListener('abort', stop);
      await reader.close();
    }
  }

  /**
   * Feed entries as events: `{callId, trace, summary}`, the trace without its document's XML, taken
   * from the call's trace list (an entry names its trace by turn and arrival). A trace no longer
   * there (past CALL_TRACE_MAX_TURNS, or expired) leaves only its turn and arrival.
   */
  private async feedEvents(streamId: string, entries: StreamEntry[]): Promise<Array<{ id: string; data: FeedEvent }>> {
    const callIds = [...new Set(entries.map((e) => e.fields.c).filter((c): c is string => c !== undefined))];
    const lists = await Promise.all(callIds.map((c) => this.repo.traces(streamId, c)));
    const byCall = new Map(callIds.map((c, i) => [c, lists[i]!]));
    return entries.map((e) => {
      const { c: callId = '', t, r, s } = e.fields;
      const turn = Number(t);
      const receivedAt = Number(r);
      const found = byCall.get(callId)?.find((x) => x.turn === turn && x.receivedAt === receivedAt);
      const trace = found ? { ...found, document: { kind: found.document.kind } } : { callId, turn, receivedAt };
      return { id: e.id, data: { callId, trace, summary: JSON.parse(s ?? '{}') as CallSummaryUpdate } };
    });
  }
}
