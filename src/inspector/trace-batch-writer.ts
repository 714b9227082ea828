/**
 * The turn loop's trace port: traces are observability data, written best-effort after the answer
 * and batched across turns, outside the turn's commit. `write` queues a trace's writes in a bounded
 * per-instance buffer (a trace past the bound is dropped and counted); the buffer goes to the store
 * in batches as soon as it holds `maxBatch` traces or `flushMs` after its first trace, one batch at
 * a time so the store gets them in order. A batch is one `atomic` per app, sent together (one round
 * trip), each guarded on the app's record: an app deleted while its traces waited (on this instance
 * or another) gets none of them, and `forgetApp` drops this instance's at once. `close`
 * writes what is buffered (graceful shutdown); an instance killed meanwhile loses what it had not
 * written yet: the batch in flight and those queued behind it (at most `maxBatch` when turns come
 * slower than a batch is written).
 */
import type { Logger } from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { CallSummaryUpdate, TurnTrace, TurnTracePort } from '../tracing/index.js';
import type { InspectorRepository, TraceWrites } from './inspector-repository.js';

export interface TraceBatchOptions {
  /** Traces in one pipelined write. */
  maxBatch: number;
  /** Traces held at most while waiting to be written; more are dropped (and counted). */
  maxBuffered: number;
  /** How long a trace waits for others to join its batch. */
  flushMs: number;
}

export const TRACE_BATCH_DEFAULTS: TraceBatchOptions = { maxBatch: 64, maxBuffered: 5_000, flushMs: 25 };

/** Counts of traces written and dropped (a metrics counter, or a test's). */
export interface TraceCounters {
  written(n: number): void;
  dropped(n: number): void;
}

export class TraceBatchWriter implements TurnTracePort {
  private buffer: TraceWrites[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly repo: InspectorRepository,
    private readonly store: Store,
    private readonly counters: TraceCounters,
    private readonly opts: TraceBatchOptions = TRACE_BATCH_DEFAULTS,
    private readonly logger?: Logger,
  ) {}

  get instanceId(): string {
    return this.repo.instanceId;
  }

  get documents(): boolean {
    return this.repo.documents;
  }

  /** Traces waiting to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  write(streamId: string, trace: TurnTrace, summary: CallSummaryUpdate): void {
    if (this.closed || this.buffer.length >= this.opts.maxBuffered) {
      this.counters.dropped(1);
      return;
    }
    this.buffer.push(this.repo.writesOf(streamId, trace, summary));
    if (this.pumping) return; // the running pump takes it with its next batch
    if (this.buffer.length >= this.opts.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs).unref();
  }

  /** Writes every trace buffered so far (and those queued meanwhile), in order. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pumping ??= this.pump().finally(() => {
      this.pumping = undefined;
      // a trace queued between the pump's last look and now waits for its timer
      if (this.buffer.length > 0)
        this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs).unref();
    });
    return this.pumping;
  }

  /** Stops taking traces and writes those buffered (graceful shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /**
   * A step of deleting an app: drops the app's buffered traces (counted as dropped) and waits for
   * the batch in flight. A trace queued after this is still refused by its batch's guard once the
   * app's record is gone.
   */
  async forgetApp(streamId: string): Promise<void> {
    const kept = this.buffer.filter((t) => t.streamId !== streamId);
    const dropped = this.buffer.length - kept.length;
    this.buffer = kept;
    if (dropped > 0) this.counters.dropped(dropped);
    await this.pumping;
  }

  private async pump(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.opts.maxBatch);
      const byApp = new Map<string, TraceWrites[]>();
      for (const t of batch) {
        const group = byApp.get(t.streamId);
        if (group) group.push(t);
        else byApp.set(t.streamId, [t]);
      }
      const groups = [...byApp];
      const outcomes = await Promise.allSettled(
        groups.map(([streamId, traces]) => this.writeApp(streamId, traces)),
      );
      outcomes.forEach((o, i) => {
        const n = groups[i]![1].length;
        if (o.status === 'fulfilled' && o.value) this.counters.written(n);
        else this.counters.dropped(n);
        if (o.status === 'rejected')
          this.logger?.warn({ err: o.reason, traces: n }, 'turn traces not written');
      });
    }
  }

  /** One app's traces of a batch, in order, while the app exists; false when it does not (nothing written). */
  private async writeApp(streamId: string, traces: TraceWrites[]): Promise<boolean> {
    const guard = this.repo.appExists(streamId);
    if (this.store.atomicAcrossSlots) {
      return (
        await this.store.atomic(
          traces.flatMap((t) => [...t.callOps, ...t.appOps]),
          [guard],
        )
      ).ok;
    }
    // a Cluster runs a script in one slot: the app's writes, guarded, then the calls' lists (a slot
    // each) only when those went through; a deletion between the two may leave a list to its expiry
    if (
      !(
        await this.store.atomic(
          traces.flatMap((t) => t.appOps),
          [guard],
        )
      ).ok
    )
      return false;
    await this.store.bulk(traces.flatMap((t) => t.callOps));
    return true;
  }
}
