/**
 * Deleting an app while traces of its calls wait in a trace writer's buffer: the deleting instance
 * drops its own, and a batch written afterwards (by this instance or by another that buffered
 * traces of the app) is refused by its guard on the app's record, so no key is left under the app.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { InspectorRepository, TraceBatchWriter } from '../../src/inspector/index.js';
import type { CallSummaryUpdate, TurnTrace } from '../../src/tracing/index.js';

const traceOf = (callId: string, turn: number): TurnTrace => ({
  callId,
  turn,
  receivedAt: 1_700_000_000_000 + turn,
  durationMs: 1,
  timing: { storeMs: 0, agentMs: 0, modelMs: 0, renderMs: 0 },
  instance: 'i-other',
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

describeEachStore('traces of a deleted app', 'store', (factory) => {
  let store: Store;
  let gw: RunningGateway | undefined;
  beforeEach(async () => {
    store = await factory.make();
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
    await store.close();
  });

  /** Keys left under the app: its scope (deletePrefix answers how many it found) and the call's trace list. */
  const keysLeft = async (streamId: string, callIds: string[]) => ({
    inScope: await store.deletePrefix(storeKeys.appScope(streamId)),
    traces: (
      await Promise.all(callIds.map((c) => store.lrange(storeKeys.callTrace(streamId, c), 0, -1)))
    ).flat().length,
  });

  it('when an app is deleted while its call traces wait in the buffer, then they are dropped and no key is left under the app', async () => {
    // traces held in the buffer until the writer is closed
    gw = await startGateway({ store, options: { traceBatch: { maxBatch: 1_000, flushMs: 600_000 } } });
    const app = await setupIvrApp(gw, { name: 'Deleted mid-batch' });
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    expect(kindOf(await call.say('book a table'))).toBe('ask');
    expect(await store.lrange(storeKeys.callTrace(app.streamId, call.callId), 0, -1)).toEqual([]);
    const dropped = async () => (await gw!.gateway.metrics.tracesDropped.get()).values[0]?.value ?? 0;
    const droppedBefore = await dropped();

    expect((await gw.admin('DELETE', `/api/admin/apps/${app.streamId}`)).status).toBe(204);
    expect(await dropped()).toBeGreaterThanOrEqual(droppedBefore + 2); // the call's two turns
    await gw.close(); // writes whatever the buffer still holds
    gw = undefined;

    expect(await keysLeft(app.streamId, [call.callId])).toEqual({ inScope: 0, traces: 0 });
  }, 90_000); // an app with a trained agent: slow on a loaded machine

  it('when another instance deletes the app while this one buffers its traces, then the batch writes nothing under it and the other app in the batch is written', async () => {
    const counts = { written: 0, dropped: 0 };
    const repo = new InspectorRepository(store, {
      ttlMs: 60_000,
      maxTurns: 500,
      documents: false,
      instanceId: 'i-other',
    });
    const writer = new TraceBatchWriter(
      repo,
      store,
      { written: (n) => (counts.written += n), dropped: (n) => (counts.dropped += n) },
      { maxBatch: 100, maxBuffered: 1_000, flushMs: 600_000 },
    );
    const [gone, kept] = ['st-gone-mid-batch', 'st-kept-mid-batch'];
    await store.set(storeKeys.appRecord(gone), '{}');
    await store.set(storeKeys.appRecord(kept), '{}');
    for (let turn = 0; turn < 3; turn++) {
      writer.write(gone, traceOf('c-gone', turn), summaryOf('c-gone', turn));
      writer.write(kept, traceOf('c-kept', turn), summaryOf('c-kept', turn));
    }
    // the deletion as AppsRepository.purge does it, on another instance: the record, then the scope
    await store.del([storeKeys.appRecord(gone)]);
    await store.deletePrefix(storeKeys.appScope(gone));
    await writer.close();

    expect(await keysLeft(gone, ['c-gone'])).toEqual({ inScope: 0, traces: 0 });
    expect((await repo.traces(kept, 'c-kept')).map((t) => t.turn)).toEqual([0, 1, 2]);
    expect(counts).toEqual({ written: 3, dropped: 3 });
  });
});
