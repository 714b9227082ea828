/**
 * A partition between the service and Redis: the open connection goes silent without being closed
 * (no FIN, no RST, as when Redis's host dies or a link drops), while Redis itself stays up. The
 * client must give up on that connection by itself (socketTimeout) and the service recover on a
 * new one, with calls carrying on through retry documents. The proxy counts the connections made
 * to it, so the tests judge the order of events (answers, then a new connection, then ready), not
 * their durations.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BOOKING, expectBooked, expectBookingHistories, expectSettledSession } from './booking-call.js';
import { expectAll503, probeJson, startFaultFixture, waitReady, type FaultFixture } from './fault-fixture.js';
import { RoundRobinClient, runScriptedCall } from './scripted-browser.js';

const CALLS = 5;

describe.skipIf(!inject('redisServerAvailable'))('Redis partition (a silent connection)', () => {
  let fx: FaultFixture;

  beforeAll(async () => {
    fx = await startFaultFixture({ viaProxy: true });
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  }, 30_000);

  /**
   * Silences the open connection(s); probes the JSON endpoints at once, then waits for /readyz 200.
   * Counts the connections the client made to Redis after the silence: before the probes had their
   * answers, and in all until it was ready again.
   */
  async function partition() {
    const proxy = fx.proxy!;
    const silenced = proxy.silence();
    const acceptedAtSilence = proxy.accepted();
    const t0 = Date.now();
    const probes = await probeJson(fx);
    const newBeforeAnswers = proxy.accepted() - acceptedAtSilence;
    await waitReady(fx);
    return {
      silenced,
      recoveredMs: Date.now() - t0,
      probes,
      newBeforeAnswers,
      newUntilReady: proxy.accepted() - acceptedAtSilence,
    };
  }

  it('when the connection to Redis goes silent without closing, then answers fail by the command timeout before the client gives that connection up, and it gets ready again on a new one by itself', async () => {
    const { silenced, recoveredMs, probes, newBeforeAnswers, newUntilReady } = await partition();
    expect(silenced).toBeGreaterThan(0);
    expectAll503(probes);
    // answered by the command timeout on the silent connection, before the client gave that
    // connection up (socketTimeout) and made a new one: not held for the length of the outage
    expect(newBeforeAnswers).toBe(0);
    // ready again through a connection of its own making: the silent one is never closed (no FIN,
    // no RST), so only the client's own socketTimeout could have ended the wait on it
    expect(newUntilReady).toBeGreaterThan(0);
    console.info(
      `[redis-partition] ${silenced} connection(s) silenced; probes ${Object.entries(probes)
        .map(([k, p]) => `${k} ${p.status} in ${p.ms} ms`)
        .join(', ')}; /readyz 200 again after ${recoveredMs} ms and ${newUntilReady} new connection(s)`,
    );
  }, 60_000);

  it('when the connection to Redis goes silent in the middle of calls, then the calls carry on through retry documents and complete with each turn once', async () => {
    const client = new RoundRobinClient([fx.gw.url]);
    const started = Date.now();
    let docs = 0;
    let cut: ReturnType<typeof partition> | undefined;
    const traces = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        runScriptedCall({
          client,
          startPath: fx.app.webhookPath,
          callId: `call-partition-${i}-${started}`,
          say: BOOKING,
          holdMs: 1_000,
          onDocument: () => {
            if (++docs === 2 * CALLS) cut = partition();
          },
        }),
      ),
    );
    await cut;
    traces.forEach(expectBooked);
    for (const t of traces)
      await expectSettledSession(fx.gw.gateway.sessions, fx.store, fx.app.streamId, t.callId);
    await expectBookingHistories(
      fx.gw.url,
      fx.app,
      traces.map((t) => t.callId),
    );
  }, 90_000);
});
