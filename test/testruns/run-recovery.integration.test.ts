import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { gatedRecognizer, keywordRecognizer } from './keyword-recognizer.js';
import {
  launch,
  makeHarness,
  putSuite,
  statusPath,
  waitForStatus,
  type Harness,
} from './testruns-harness.js';

const INTENTS = { BookFlight: ['book', 'flight', 'fly'], Weather: ['weather'] };
const TEN = Array.from({ length: 10 }, (_, i) => ({
  utterance: i % 2 ? `book flight ${i}` : `weather ${i}`,
  intent: i % 2 ? 'BookFlight' : 'Weather',
}));
const FAST = { heartbeatMs: 40, ownerTtlMs: 120, sweepMs: 60_000, chunkSize: 2 };

async function until(cond: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeEachStore('batch test runs across restarts', 'store', (factory) => {
  let store: Store;
  const harnesses: Harness[] = [];
  const harness = async (opts = {}, agents?: Harness['agents']): Promise<Harness> => {
    const h = await makeHarness(store, { ...FAST, ...opts }, agents);
    harnesses.push(h);
    return h;
  };

  beforeAll(async () => {
    store = await factory.make();
  });
  afterAll(async () => {
    for (const h of harnesses) await h.component.stop();
    await store.close();
  });

  it('when a run is in progress, then status shows the running form with the progress persisted so far', async () => {
    const h = await harness();
    const app = await h.t.createAppWithClient(['batch-tests']);
    const gated = gatedRecognizer(keywordRecognizer(INTENTS), 4);
    h.agents.set(app.streamId, gated.recognizer);
    await putSuite(h.t, app.streamId, 'ten', TEN);
    const runId = await launch(h.t, app.streamId, 'ten', app.token());
    await gated.reached;
    const res = await request(h.t.app)
      .get(statusPath(app.streamId, 'ten', runId))
      .set('auth', app.token())
      .set('bot-language', 'en');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: runId,
      status: 'running',
      totalUtterances: 10,
      utterance_ran: 4,
      percentage: 40,
      utterance_count: 10,
    });
    expect(Object.keys(res.body.result).sort()).toEqual(
      [
        '_id',
        'isPartialFailure',
        'status',
        'testSuiteId',
        'triggeredBy',
        'streamId',
        'botLanguage',
        'runType',
        'utterance_count',
        'startTime',
        '__v',
      ].sort(),
    );
    expect(res.body.result).toMatchObject({
      status: 'running',
      isPartialFailure: false,
      runType: 'inDevelopment',
      __v: 0,
    });
    gated.release();
    const done = await waitForStatus(h.t, statusPath(app.streamId, 'ten', runId), app.token());
    expect(done.result.results).toMatchObject({ TP: 10, success: 10, failure: 0 });
  });

  it('when the instance running a run dies without stop, then a new instance marks it failed at start, keeping the results so far', async () => {
    const a = await harness({ instanceId: 'pi-first-process' });
    const app = await a.t.createAppWithClient(['batch-tests']);
    const gated = gatedRecognizer(keywordRecognizer(INTENTS), 4);
    a.agents.set(app.streamId, gated.recognizer);
    await putSuite(a.t, app.streamId, 'ten', TEN);
    const runId = await launch(a.t, app.streamId, 'ten', app.token());
    await gated.reached;
    a.component.halt(); // the process is killed: no stop(), no more heartbeats
    await until(async () => !(await store.exists(storeKeys.testRunOwner('pi-first-process'))));
    expect(await store.smembers(storeKeys.testRunsActive())).toContain(`${app.streamId}|${runId}`);

    const b = await harness({}, a.agents); // the new process; start() ran in makeHarness
    const res = await request(b.t.app)
      .get(statusPath(app.streamId, 'ten', runId))
      .set('auth', app.token());
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.utterance_ran).toBe(4);
    expect(res.body.result).toMatchObject({
      status: 'failed',
      isPartialFailure: true,
      isAvailable: true,
      precision: '1.00',
      recall: '1.00',
    });
    expect(res.body.result.results).toMatchObject({
      TP: 4,
      success: 4,
      failure: 0,
      inScopeCount: 4,
      inScopeCorrectCount: 4,
      outOfScopeCount: 0,
    });
    // the rejection figures persisted with the checkpoint: four in-scope, none expected None
    expect(res.body.result).toMatchObject({ inScopeAccuracy: 1, falseAcceptRate: null });
    expect(res.body.result.confusionMatrix).toEqual({
      labels: ['BookFlight', 'Weather', 'None'],
      matrix: [
        [2, 0, 0],
        [0, 2, 0],
        [0, 0, 0],
      ],
    });
    expect(res.body.result.calibration.bins.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(
      4,
    );
    expect(Date.parse(res.body.result.endTime)).toBeGreaterThanOrEqual(Date.parse(res.body.result.startTime));
    expect(await store.smembers(storeKeys.testRunsActive())).not.toContain(`${app.streamId}|${runId}`);

    const url = new URL(res.body.result.fileUrl as string);
    const file = await request(b.t.app).get(url.pathname + url.search);
    expect(file.status).toBe(200);
    const rows = parse(file.text, { relax_column_count: true });
    expect(rows.find((r) => r[0] === 'Status')?.[1]).toBe('failed');
    expect(rows.slice(rows.findIndex((r) => r[0] === 'Utterance') + 1)).toHaveLength(4);

    gated.release(); // the dead process's loop wakes up: it must not write
    await new Promise((r) => setTimeout(r, 50));
    const after = await request(b.t.app)
      .get(statusPath(app.streamId, 'ten', runId))
      .set('auth', app.token());
    expect(after.body.status).toBe('failed');
    expect(after.body.result.results).toEqual(res.body.result.results);
    expect(after.body.result.fileId).toBe(res.body.result.fileId);
    // the suite is free again
    const rerun = await launch(b.t, app.streamId, 'ten', app.token());
    expect((await waitForStatus(b.t, statusPath(app.streamId, 'ten', rerun), app.token())).status).toBe(
      'completed',
    );
  });

  it('when another instance starts while the owner is alive, then the run is left running', async () => {
    const a = await harness();
    const app = await a.t.createAppWithClient(['batch-tests']);
    const gated = gatedRecognizer(keywordRecognizer(INTENTS), 2);
    a.agents.set(app.streamId, gated.recognizer);
    await putSuite(a.t, app.streamId, 'ten', TEN);
    const runId = await launch(a.t, app.streamId, 'ten', app.token());
    await gated.reached;
    await new Promise((r) => setTimeout(r, 200)); // longer than the owner TTL: only the heartbeat keeps it alive
    const b = await harness({}, a.agents);
    const mid = await request(b.t.app)
      .get(statusPath(app.streamId, 'ten', runId))
      .set('auth', app.token());
    expect(mid.body.status).toBe('running');
    gated.release();
    const done = await waitForStatus(b.t, statusPath(app.streamId, 'ten', runId), app.token());
    expect(done.status).toBe('completed');
    expect(done.result.results.TP).toBe(10);
  });

  it('when an instance stops gracefully mid-run, then the run is failed with isPartialFailure', async () => {
    const a = await makeHarness(store, { ...FAST, stopGraceMs: 100 });
    const app = await a.t.createAppWithClient(['batch-tests']);
    const gated = gatedRecognizer(keywordRecognizer(INTENTS), 6);
    a.agents.set(app.streamId, gated.recognizer);
    await putSuite(a.t, app.streamId, 'ten', TEN);
    const runId = await launch(a.t, app.streamId, 'ten', app.token());
    await gated.reached;
    const stopping = a.component.stop();
    gated.release(); // the current utterance finishes; the loop sees the stop and ends the run
    await stopping;
    const b = await harness({}, a.agents);
    const res = await request(b.t.app)
      .get(statusPath(app.streamId, 'ten', runId))
      .set('auth', app.token());
    expect(res.body.status).toBe('failed');
    expect(res.body.result.isPartialFailure).toBe(true);
    expect(res.body.utterance_ran).toBe(7);
    expect(res.body.result.results.TP).toBe(7);
    const refused = await request(a.t.app)
      .post(`/api/public/bot/${app.streamId}/testsuite/ten/run`)
      .set('auth', app.token());
    expect(refused.status).toBe(503);
  });

  it('when a completed run is asked after a restart, then it keeps its result and file', async () => {
    const a = await harness();
    const app = await a.t.createAppWithClient(['batch-tests']);
    a.agents.set(app.streamId, keywordRecognizer(INTENTS));
    await putSuite(a.t, app.streamId, 'ten', TEN);
    const runId = await launch(a.t, app.streamId, 'ten', app.token());
    const before = await waitForStatus(a.t, statusPath(app.streamId, 'ten', runId), app.token());
    a.component.halt();
    const b = await harness({}, new Map());
    const after = await request(b.t.app)
      .get(statusPath(app.streamId, 'ten', runId))
      .set('auth', app.token());
    expect(after.status).toBe(200);
    const { fileUrl: _a, ...was } = before.result;
    const { fileUrl, ...now } = after.body.result;
    expect(now).toEqual(was);
    const url = new URL(fileUrl as string);
    const file = await request(b.t.app).get(url.pathname + url.search);
    expect(file.status).toBe(200);
    expect(file.text).toContain('weather 0');
  });

  it('when a 10,000-utterance run is going, then other requests are answered while it runs', async () => {
    const h = await harness({ chunkSize: 50, heartbeatMs: 2000, ownerTtlMs: 10_000 });
    const app = await h.t.createAppWithClient(['batch-tests']);
    h.agents.set(app.streamId, keywordRecognizer(INTENTS, { costMs: 0.1 }));
    const big = Array.from({ length: 10_000 }, (_, i) => ({
      utterance: `book flight number ${i}`,
      intent: 'BookFlight',
    }));
    await putSuite(h.t, app.streamId, 'big', big);
    const runId = await launch(h.t, app.streamId, 'big', app.token());
    for (let i = 0; i < 5; i++) expect((await request(h.t.app).get('/healthz')).status).toBe(200);
    const mid = await request(h.t.app)
      .get(statusPath(app.streamId, 'big', runId))
      .set('auth', app.token());
    expect(mid.body.status).toBe('running');
    expect(mid.body.utterance_ran).toBeLessThan(10_000);
    const done = await waitForStatus(
      h.t,
      statusPath(app.streamId, 'big', runId),
      app.token(),
      undefined,
      60_000,
    );
    expect(done.result.results).toMatchObject({ TP: 10_000, success: 10_000 });
  });
});
