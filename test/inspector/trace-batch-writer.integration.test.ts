/**
 * The batched trace writer (issue 39, item 1): traces leave the turn's commit and go to the store
 * after the answer, in pipelined batches; the order of a call's traces is kept, the buffer is
 * bounded (what does not fit is dropped and counted), and closing writes what is buffered.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { InspectorRepository, TraceBatchWriter, type TraceBatchOptions } from '../../src/inspector/index.js';
import type { CallSummaryUpdate, TurnTrace } from '../../src/tracing/index.js';

const STREAM = 'app-trace-batch';

const traceOf = (callId: string, turn: number): TurnTrace => ({
  callId,
  turn,
  receivedAt: 1_700_000_000_000 + turn,
  durationMs: 1,
  timing: { storeMs: 0, agentMs: 0, modelMs: 0, renderMs: 0 },
  instance: 'i-test',
  event: turn === 0 ? 'start' : 'input',
  marks: [],
  request: { callId },
  document: { kind: 'ask' },
});
const summaryOf = (callId: string, turn: number): CallSummaryUpdate => ({
  callId,
  startedAt: 1_700_000_000_000,
  lastTurnAt: Date.now(),
  turns: turn + 1,
  lastEvent: 'input',
});

describeEachStore('trace batch writer', 'store', (factory) => {
  let store: Store;
  let repo: InspectorRepository;
  let counts: { written: number; dropped: number };
  const writer = (opts: Partial<TraceBatchOptions> = {}) =>
    new TraceBatchWriter(
      repo,
      store,
      { written: (n) => (counts.written += n), dropped: (n) => (counts.dropped += n) },
      { maxBatch: 8, maxBuffered: 1_000, flushMs: 25, ...opts },
    );

  beforeEach(async () => {
    store = await factory.make();
    repo = new InspectorRepository(store, {
      ttlMs: 60_000,
      maxTurns: 500,
      documents: false,
      instanceId: 'i-test',
    });
    counts = { written: 0, dropped: 0 };
    // a trace is written only while its app exists (its record)
    await store.set(storeKeys.appRecord(STREAM), '{}');
  });
  afterEach(async () => {
    await store.close();
  });

  it('when many turns of two calls are written in several batches, then each call keeps its order and the feed names every turn once', async () => {
    const w = writer();
    for (let turn = 0; turn < 50; turn++) {
      w.write(STREAM, traceOf('c-a', turn), summaryOf('c-a', turn));
      w.write(STREAM, traceOf('c-b', turn), summaryOf('c-b', turn));
      if (turn % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await w.flush();
    expect(w.buffered).toBe(0);
    expect((await repo.traces(STREAM, 'c-a')).map((t) => t.turn)).toEqual([...Array(50).keys()]);
    expect((await repo.traces(STREAM, 'c-b')).map((t) => t.turn)).toEqual([...Array(50).keys()]);
    const reader = await store.streamReader();
    try {
      const feed = await reader.read(storeKeys.callFeed(STREAM), '0-0', 1_000, 10);
      expect(feed.filter((e) => e.fields.c === 'c-a').map((e) => Number(e.fields.t))).toEqual([
        ...Array(50).keys(),
      ]);
    } finally {
      await reader.close();
    }
    expect(counts).toEqual({ written: 100, dropped: 0 });
  });

  it('when more traces come than the buffer holds before a write, then the rest are dropped and counted', async () => {
    const w = writer({ maxBatch: 100, maxBuffered: 5 });
    for (let turn = 0; turn < 8; turn++) w.write(STREAM, traceOf('c-full', turn), summaryOf('c-full', turn));
    expect(w.buffered).toBe(5);
    expect(counts.dropped).toBe(3);
    await w.flush();
    expect((await repo.traces(STREAM, 'c-full')).map((t) => t.turn)).toEqual([0, 1, 2, 3, 4]);
    expect(counts).toEqual({ written: 5, dropped: 3 });
  });

  it('when the writer is closed, then the traces it buffered are in the store and later ones are dropped', async () => {
    const w = writer({ maxBatch: 100, flushMs: 60_000 });
    for (let turn = 0; turn < 3; turn++)
      w.write(STREAM, traceOf('c-close', turn), summaryOf('c-close', turn));
    expect(await store.lrange(storeKeys.callTrace(STREAM, 'c-close'), 0, -1)).toEqual([]);
    await w.close();
    expect(await store.lrange(storeKeys.callTrace(STREAM, 'c-close'), 0, -1)).toHaveLength(3);
    w.write(STREAM, traceOf('c-close', 3), summaryOf('c-close', 3));
    expect(counts).toEqual({ written: 3, dropped: 1 });
  });

  it('when traces wait for their batch and nothing else comes, then they are written after the flush interval', async () => {
    const w = writer({ maxBatch: 100, flushMs: 5 });
    w.write(STREAM, traceOf('c-timer', 0), summaryOf('c-timer', 0));
    for (let i = 0; i < 200 && counts.written === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(counts.written).toBe(1);
    expect(await store.lrange(storeKeys.callTrace(STREAM, 'c-timer'), 0, -1)).toHaveLength(1);
  });
});
