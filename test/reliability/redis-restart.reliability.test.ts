/**
 * Redis really stopped (SIGTERM) and started again on the same port with no persistence, so its
 * data is gone: while it is down every answer is immediate (no offline queue) and says so in the
 * contract's shapes; when it is back the service reconnects by itself, calls whose data was lost
 * end with an error document, and newly provisioned apps work end to end.
 *
 * No duration is judged. The store client's command timeout is set past the length of a test here,
 * so a command held back (queued until Redis returns) would get no answer while Redis is down, and
 * Redis is started again only after every answer the test waits for has come.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storeKeys } from '../../src/store/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { BOOKING, expectBooked, expectBookingHistories, expectSettledSession } from './booking-call.js';
import { expectAll503, probeJson, startFaultFixture, waitReady, type FaultFixture } from './fault-fixture.js';
import { provisionIvrApp, sharedEnv, startGatewayProcess, type ProvisionedApp } from './gateway-processes.js';
import { parseDocument, RoundRobinClient, runScriptedCall, type ParsedDocument } from './scripted-browser.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FROM = '+15550001111';
/** Longer than any test here (and than the probes' and the client's own aborts). */
const COMMAND_TIMEOUT_MS = 120_000;
/** A short store retry budget, so that a turn's retries run out while Redis is still down. */
const RETRY_BUDGET_MS = 1_500;

describe.skipIf(!inject('redisServerAvailable'))('Redis stopped and started again (data lost)', () => {
  let fx: FaultFixture;

  beforeAll(async () => {
    fx = await startFaultFixture({
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      storeRetryBudgetMs: RETRY_BUDGET_MS,
    });
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  }, 30_000);

  /** A call at its second question ("For how many people?"), on a freshly provisioned app. */
  async function callAtSecondTurn(
    client: RoundRobinClient,
    app: ProvisionedApp,
    callId: string,
  ): Promise<ParsedDocument> {
    const welcome = parseDocument(
      (await client.post(app.webhookPath, { callId, message: '', from: FROM, to: 'agent' })).xml,
    );
    const t = 'book a table';
    const doc = parseDocument(
      (
        await client.post(welcome.submit!.path, {
          callId,
          from: FROM,
          turn: welcome.vars.turn!,
          message: t,
          interpretation: t,
          confidence: '0.9',
          inputmode: 'voice',
        })
      ).xml,
    );
    expect(doc.spoken).toContain('For how many people?');
    return doc;
  }

  const submitNamelist = (client: RoundRobinClient, doc: ParsedDocument) =>
    client.post(
      doc.submit!.path,
      Object.fromEntries(doc.submit!.namelist.map((n) => [n, doc.vars[n] ?? ''])),
    );

  it("when Redis is down, then a turn answers retry documents (same request, retry counted up, the first fault's time kept) until the retry budget is spent, then the error document, and JSON APIs and /readyz 503 at once, all before Redis is back", async () => {
    const app = await provisionIvrApp(fx.gw.url, fx.gw.config.adminToken);
    const client = new RoundRobinClient([fx.gw.url]);
    const callId = `call-down-${Date.now()}`;
    const ask = await callAtSecondTurn(client, app, callId);
    await fx.redis.stop();
    try {
      const t0 = Date.now();
      let answer = await client.post(ask.submit!.path, {
        callId,
        from: FROM,
        turn: ask.vars.turn!,
        message: '4',
        interpretation: '4',
        confidence: '0.9',
        inputmode: 'voice',
      });
      const firstMs = Date.now() - t0;
      // answered at all while Redis is down: with the command timeout past the test, only a client
      // that refuses at once (no offline queue) can answer before Redis is back (in `finally`)
      const docs = [answer.xml];
      let doc = parseDocument(answer.xml);
      const since = doc.vars.retrySince;
      let retries = 0;
      while (doc.kind === 'wait' && retries < 50) {
        retries++;
        expect(answer.status).toBe(200);
        expect(doc.vars).toMatchObject({
          retry: String(retries),
          retrySince: since,
          message: '4',
          turn: ask.vars.turn,
        });
        // the hold prompt plays once, with the first retry document
        expect(doc.spoken === '', doc.spoken).toBe(retries > 1);
        answer = await submitNamelist(client, doc);
        docs.push(answer.xml);
        doc = parseDocument(answer.xml);
      }
      const spentMs = Date.now() - t0;
      expect(answer.status).toBe(200);
      expect(doc.kind).toBe('error');
      expect(doc.vars.error).toBe('store_unavailable');
      // the budget, not a count, ended the retries: the pauses grow, so a few retries filled it
      expect(retries).toBeGreaterThanOrEqual(2);
      expect(spentMs).toBeGreaterThanOrEqual(RETRY_BUDGET_MS);
      expect(Number(since)).toBeGreaterThanOrEqual(t0 - 1_000);
      await assertValidVxml(docs);
      const probes = await probeJson(fx);
      expectAll503(probes);
      console.info(
        `[redis-restart] down: first turn answer in ${firstMs} ms, ${retries} retry documents in ${spentMs} ms; probes ${Object.entries(
          probes,
        )
          .map(([k, p]) => `${k} ${p.status} in ${p.ms} ms`)
          .join(', ')}`,
      );
    } finally {
      await fx.redis.start();
    }
    // ready again by itself, the service neither restarted nor reconfigured
    await waitReady(fx);
  }, 60_000);

  it('when Redis comes back empty, then the service reconnects by itself, a call whose data was lost ends with an error document, and a new app serves whole calls', async () => {
    const lost = await provisionIvrApp(fx.gw.url, fx.gw.config.adminToken);
    const client = new RoundRobinClient([fx.gw.url]);
    const callId = `call-lost-${Date.now()}`;
    const ask = await callAtSecondTurn(client, lost, callId);
    await fx.redis.stop();
    const down = Date.now();
    await sleep(500);
    await fx.redis.start();
    const readyMs = await waitReady(fx);
    // past the webhook's 2 s caches, so what the service answers comes from the (empty) store
    await sleep(2_100);
    const answer = await client.post(ask.submit!.path, {
      callId,
      from: FROM,
      turn: ask.vars.turn!,
      message: '4',
      interpretation: '4',
      confidence: '0.9',
      inputmode: 'voice',
    });
    const doc = parseDocument(answer.xml);
    expect(doc.kind).toBe('error');
    expect(answer.status).toBe(404);
    await assertValidVxml(answer.xml);
    const appRead = await fetch(`${fx.gw.url}/api/admin/apps/${lost.streamId}`, {
      headers: { Authorization: `Bearer ${fx.gw.config.adminToken}` },
    });
    expect(appRead.status).toBe(404);
    expect(await fx.store.exists(storeKeys.callSession(lost.streamId, callId))).toBe(false);

    const app = await provisionIvrApp(fx.gw.url, fx.gw.config.adminToken);
    const traces = await Promise.all(
      [0, 1, 2].map((i) =>
        runScriptedCall({
          client,
          startPath: app.webhookPath,
          callId: `call-after-${i}-${down}`,
          say: BOOKING,
        }),
      ),
    );
    traces.forEach(expectBooked);
    for (const t of traces)
      await expectSettledSession(fx.gw.gateway.sessions, fx.store, app.streamId, t.callId);
    await expectBookingHistories(
      fx.gw.url,
      app,
      traces.map((t) => t.callId),
    );
    console.info(
      `[redis-restart] back: /readyz 200 ${readyMs} ms after the start; the lost call got ${answer.status} ${doc.vars.error}`,
    );
  }, 60_000);

  it('when a service process starts while Redis is down, then it exits at once with a message naming Redis', async () => {
    const port = fx.redis.port;
    await fx.redis.stop();
    try {
      const env = sharedEnv(`redis://127.0.0.1:${port}`);
      // it exits rather than gets ready or waits for Redis (which would run into the test's timeout)
      const err = await startGatewayProcess('gw-no-redis', env).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/exited/);
      expect(err?.message).toMatch(/Redis/);
    } finally {
      await fx.redis.start();
    }
    await waitReady(fx);
  }, 60_000);

  it('when a service process is stopped with SIGTERM while Redis is down, then it still exits cleanly with status 0', async () => {
    const gw = await startGatewayProcess('gw-sigterm', sharedEnv(fx.redis.url));
    await fx.redis.stop();
    try {
      // 0 is its own clean exit; a process that hung on the store would be killed (137) after the
      // grace, which is only there to end the test and far past any clean shutdown
      expect(await gw.proc.stop('SIGTERM', 30_000), gw.proc.output()).toBe(0);
    } finally {
      await gw.proc.stop('SIGKILL');
      await fx.redis.start();
    }
    await waitReady(fx);
  }, 60_000);
});
