/**
 * Feed entries as Server-Sent Events: `id: <entry id>` / `event: turn` / `data: {callId, trace,
 * summary}`, the trace without its document's XML. An entry names its trace (call, turn, arrival)
 * instead of copying it; the trace is taken from the end of the call's list, where a turn just
 * traced is (the whole list only when it is not there). A trace no longer kept (past
 * CALL_TRACE_MAX_TURNS, or expired) leaves only its turn and arrival. Built once per entry, however
 * many feeds watch: the text is shared.
 */
import type { CallSummaryUpdate, TurnTrace } from '../tracing/index.js';
import type { StreamEntry } from '../store/index.js';
import type { InspectorRepository } from './inspector-repository.js';

/** One event of the live feed, ready to write. */
export interface FeedEvent {
  id: string;
  callId: string;
  text: string;
}

type EventTrace =
  | (Omit<TurnTrace, 'document'> & { document: { kind: TurnTrace['document']['kind'] } })
  | { callId: string; turn: number; receivedAt: number };

/** Traces read from the end of a call's list beyond those the batch names (turns traced meanwhile). */
const TAIL_MARGIN = 4;

/** Orders two feed ids (`<ms>-<seq>`): negative when `a` is older. */
export function compareEventIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am !== bm ? am - bm : as - bs;
}

/** The traces a batch of entries names, per call: one read of each call's tail (and its whole list when a trace is older). */
async function tracesOf(
  repo: InspectorRepository,
  streamId: string,
  entries: StreamEntry[],
): Promise<Map<string, TurnTrace[]>> {
  const perCall = new Map<string, number>();
  for (const e of entries) if (e.fields.c) perCall.set(e.fields.c, (perCall.get(e.fields.c) ?? 0) + 1);
  const calls = [...perCall.keys()];
  const lists = await Promise.all(
    calls.map(async (callId) => {
      const tail = await repo.traceTail(streamId, callId, perCall.get(callId)! + TAIL_MARGIN);
      const wanted = entries.filter((e) => e.fields.c === callId);
      const all = wanted.every((e) =>
        tail.some((t) => t.turn === Number(e.fields.t) && t.receivedAt === Number(e.fields.r)),
      );
      return all ? tail : repo.traces(streamId, callId);
    }),
  );
  return new Map(calls.map((c, i) => [c, lists[i]!]));
}

export async function feedEvents(
  repo: InspectorRepository,
  streamId: string,
  entries: StreamEntry[],
): Promise<FeedEvent[]> {
  if (entries.length === 0) return [];
  const byCall = await tracesOf(repo, streamId, entries);
  return entries.map((e) => {
    const { c: callId = '', t, r, s } = e.fields;
    const turn = Number(t);
    const receivedAt = Number(r);
    const found = byCall.get(callId)?.find((x) => x.turn === turn && x.receivedAt === receivedAt);
    const trace: EventTrace = found
      ? { ...found, document: { kind: found.document.kind } }
      : { callId, turn, receivedAt };
    const data = { callId, trace, summary: JSON.parse(s ?? '{}') as CallSummaryUpdate };
    return { id: e.id, callId, text: `id: ${e.id}\nevent: turn\ndata: ${JSON.stringify(data)}\n\n` };
  });
}
