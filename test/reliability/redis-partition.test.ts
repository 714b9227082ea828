/**
 * A partition between the service and Redis: the open connection goes silent without being closed
 * (no FIN, no RST, as when Redis's host dies or a link drops), while Redis itself stays up. The
 * client must give up on that connection by itself (socketTimeout) and the service recover on a
 * new one, with calls carrying on through retry documents.
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

  /** Silences the open connection(s); probes the JSON endpoints at once, then waits for /readyz 200. */
  async function partition() {
    const silenced = fx.proxy!.silence();
    const t0 = Date.now();
    const probes = await probeJson(fx);
    await waitReady(fx, 20_000);
    return { silenced, recoveredMs: Date.now() - t0, probes };
  }

  it('when the connection to Redis goes silent without closing, then answers fail within the command timeout and the client reconnects by itself within seconds', async () => {
    const { silenced, recoveredMs, probes } = await partition();
    expect(silenced).toBeGreaterThan(0);
    expectAll503(probes);
    for (const p of Object.values(probes)) expect(p.ms).toBeLessThan(2_800);
    // socketTimeout (5 s) plus a reconnect, not the kernel's retransmission timeout (minutes)
    expect(recoveredMs).toBeLessThan(9_000);
    console.info(`[redis-partition] ${silenced} connection(s) silenced; probes ${Object.entries(probes).map(([k, p]) => `${k} ${p.status} in ${p.ms} ms`).join(', ')}; /readyz 200 again after ${recoveredMs} ms`);
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
    for (const t of traces) await expectSettledSession(fx.gw.gateway.sessions, fx.store, t.callId);
    await expectBookingHistories(fx.gw.url, fx.app, traces.map((t) => t.callId));
  }, 90_000);
});
