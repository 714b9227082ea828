/**
 * The inspector's records in the store. Per call (the call's slot): its turn traces, a capped list
 * (`storeKeys.callTrace`, oldest dropped past CALL_TRACE_MAX_TURNS) that each turn's commit
 * appends to in its own step. Per app (the app's slot): the index of calls (`callIndex`, callIds
 * scored by start), each call's summary hash (`callSummary`) and the live feed (`callFeed`, a
 * stream of traced turns without their documents). Everything lives CALL_TRACE_TTL_S after the
 * call's latest turn. It answers a trace's writes; the trace batch writer (trace-batch-writer.ts,
 * the turn loop's TurnTracePort) sends them after the answer, batched across turns, guarded on the
 * app's record so that nothing lands under an app deleted meanwhile.
 */
import {
  storeKeys,
  type Guard,
  type Store,
  type StreamEntry,
  type StreamReader,
  type WriteOp,
} from '../store/index.js';
import type { CallSummaryUpdate, TurnTrace } from '../tracing/index.js';

/** About how many events an app's feed keeps (MAXLEN ~): what a reconnecting client can resume from. */
export const FEED_MAX_EVENTS = 10_000;

export interface TraceOptions {
  ttlMs: number;
  maxTurns: number;
  documents: boolean;
  instanceId: string;
}

/** A feed entry's fields: the call, the trace's turn and arrival (ms), the call's summary update (JSON). */
type FeedEntry = Record<'c' | 't' | 'r' | 's', string>;

/** One trace's writes, by slot (see InspectorRepository.writesOf). */
export interface TraceWrites {
  streamId: string;
  callOps: WriteOp[];
  appOps: WriteOp[];
}

export interface ScoredCall {
  callId: string;
  startedAt: number;
}

export class InspectorRepository {
  /**
   * Awaited before the inspector's reads of calls and traces: writes this instance's buffered
   * traces first, so a read sees every trace this instance answered before it.
   */
  settle: () => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly opts: TraceOptions,
  ) {}

  get instanceId(): string {
    return this.opts.instanceId;
  }

  get documents(): boolean {
    return this.opts.documents;
  }

  /**
   * A trace's writes, by slot: its call's list (the call's slot), and the app's summary, index and
   * feed (the app's slot, beside the app's record that `appExists` guards on).
   */
  writesOf(streamId: string, trace: TurnTrace, summary: CallSummaryUpdate): TraceWrites {
    const { ttlMs, maxTurns } = this.opts;
    const key = storeKeys.callTrace(streamId, trace.callId);
    return {
      streamId,
      callOps: [
        { op: 'rpush', key, value: JSON.stringify(trace), keepLast: maxTurns },
        { op: 'pexpire', key, ttlMs },
      ],
      appOps: this.appOps(streamId, trace, summary),
    };
  }

  /** Holds while the app exists: its record is the first thing a deletion removes (AppsRepository.purge). */
  appExists(streamId: string): Guard {
    return { key: storeKeys.appRecord(streamId), present: true };
  }

  /**
   * The summary, the index and the feed: all in the app's slot. What does not change during a call
   * (its id, start, numbers, its place in the index, the index's pruning) is written by its opening
   * turns only; a feed entry names the trace (call, turn, arrival) instead of copying it, and the
   * feed's reader takes the trace from the call's list (only when someone watches).
   */
  private appOps(streamId: string, trace: TurnTrace, summary: CallSummaryUpdate): WriteOp[] {
    const { ttlMs } = this.opts;
    const opening = summary.turns <= 2; // the start and the first answer (a Cluster's second step lost once is made good)
    const fields: Record<string, string> = {
      lastTurnAt: String(summary.lastTurnAt),
      turns: String(summary.turns),
      lastEvent: summary.lastEvent,
    };
    if (opening) {
      fields.callId = summary.callId;
      fields.startedAt = String(summary.startedAt);
      if (summary.from) fields.from = summary.from;
      if (summary.to) fields.to = summary.to;
    }
    if (summary.node) fields.node = summary.node;
    if (summary.lang) fields.lang = summary.lang;
    // sticky flags: set by the turn they happen in, never cleared (no read before the write)
    if (summary.ended) fields.ended = summary.ended;
    if (summary.transferred) fields.transferred = '1';
    if (summary.error) fields.hasError = '1';
    const summaryKey = storeKeys.callSummary(streamId, summary.callId);
    const feed = storeKeys.callFeed(streamId);
    const entry: FeedEntry = {
      c: trace.callId,
      t: String(trace.turn),
      r: String(trace.receivedAt),
      s: JSON.stringify(summary),
    };
    const ops: WriteOp[] = [
      { op: 'hset', key: summaryKey, fields },
      { op: 'pexpire', key: summaryKey, ttlMs },
      { op: 'xadd', key: feed, fields: entry, maxLen: FEED_MAX_EVENTS },
    ];
    if (opening) {
      const index = storeKeys.callIndex(streamId);
      ops.push(
        { op: 'zadd', key: index, score: summary.startedAt, member: summary.callId },
        { op: 'zremrangebyscore', key: index, min: -Infinity, max: summary.lastTurnAt - ttlMs },
        { op: 'pexpire', key: index, ttlMs },
        { op: 'pexpire', key: feed, ttlMs },
      );
    }
    return ops;
  }

  /** Calls started between `min` and `max` (ms), newest first, from `offset`. */
  async calls(
    streamId: string,
    min: number,
    max: number,
    offset: number,
    count: number,
  ): Promise<ScoredCall[]> {
    await this.settle();
    const found = await this.store.zrangeByScore(storeKeys.callIndex(streamId), min, max, {
      rev: true,
      offset,
      count,
    });
    return found.map((x) => ({ callId: x.member, startedAt: x.score }));
  }

  /** The summary hashes of calls ({} for one that expired). */
  async summaries(streamId: string, callIds: string[]): Promise<Array<Record<string, string>>> {
    await this.settle();
    return this.store.hgetallMany(callIds.map((id) => storeKeys.callSummary(streamId, id)));
  }

  async traces(streamId: string, callId: string): Promise<TurnTrace[]> {
    await this.settle();
    const raw = await this.store.lrange(storeKeys.callTrace(streamId, callId), 0, -1);
    return raw.map((r) => JSON.parse(r) as TurnTrace);
  }

  /** The last `count` traces of a call, oldest first. */
  async traceTail(streamId: string, callId: string, count: number): Promise<TurnTrace[]> {
    const raw = await this.store.lrange(storeKeys.callTrace(streamId, callId), -count, -1);
    return raw.map((r) => JSON.parse(r) as TurnTrace);
  }

  /** The id of the feed's newest event (`0-0` when it has none). */
  async feedHead(streamId: string): Promise<string> {
    return (await this.store.lastStreamId(storeKeys.callFeed(streamId))) ?? '0-0';
  }

  feedReader(): Promise<StreamReader> {
    return this.store.streamReader();
  }

  readFeed(
    reader: StreamReader,
    streamId: string,
    afterId: string,
    blockMs: number,
    count = 100,
  ): Promise<StreamEntry[]> {
    return reader.read(storeKeys.callFeed(streamId), afterId, count, blockMs);
  }
}
