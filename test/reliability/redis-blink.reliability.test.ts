/**
 * A Redis blink: the server is frozen (SIGSTOP) for a few seconds in the middle of live calls, then thawed
 * (SIGCONT) with its data intact. The service must answer while Redis is still frozen (retry
 * documents for turns, 503 for JSON APIs and /readyz), not hang for the length of the outage, and
 * every call must carry on after it, each turn exactly once, nothing half-written. Nothing here
 * judges a duration: what answered, and whether before or after the thaw, is what is checked.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { BOOKING, expectBooked, expectBookingHistories, expectSettledSession } from './booking-call.js';
import {
  expectAll503,
  probeJson,
  readyzStatus,
  startFaultFixture,
  type FaultFixture,
  type Probes,
} from './fault-fixture.js';
import { RoundRobinClient, runScriptedCall, type CallTrace } from './scripted-browser.js';

const CALLS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!inject('redisServerAvailable'))('Redis blink (SIGSTOP, then SIGCONT)', () => {
  let fx: FaultFixture;

  beforeAll(async () => {
    fx = await startFaultFixture();
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  }, 30_000);

  /**
   * Runs 10 booking calls, freezes Redis once 20 documents were answered, checks everything after.
   * Redis stays frozen for at least `freezeMs` and until the probes sent at the freeze have their
   * answers, so every answer they get comes while it is frozen: a service that waited for Redis
   * would leave them unanswered until their own abort (fault-fixture.ts) and fail the test, however
   * slow or fast the machine.
   */
  async function callsThroughBlink(freezeMs: number) {
    const client = new RoundRobinClient([fx.gw.url]);
    let docs = 0;
    let blink: Promise<{ probes: Probes; frozenAt: number }> | undefined;
    const started = Date.now();
    const freeze = async () => {
      fx.redis.pause();
      const frozenAt = Date.now() - started;
      try {
        const [probes] = await Promise.all([probeJson(fx), sleep(freezeMs)]);
        return { probes, frozenAt };
      } finally {
        fx.redis.resume();
      }
    };
    const traces: CallTrace[] = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        runScriptedCall({
          client,
          startPath: fx.app.webhookPath,
          callId: `call-blink-${freezeMs}-${i}-${started}`,
          say: BOOKING,
          // a browser plays the hold prompt before it resubmits
          holdMs: 700,
          onDocument: () => {
            if (++docs === 2 * CALLS) blink = freeze();
          },
        }),
      ),
    );
    const { probes, frozenAt } = await blink!;
    // each probe answered 503 while Redis was still frozen (see above), not after the thaw
    expectAll503(probes);
    // the calls went through the store after the thaw: readiness says so at the first ask
    expect(await readyzStatus(fx)).toBe(200);

    traces.forEach(expectBooked);
    const retries = traces.flatMap((t) => t.docs.filter((d) => d.retry !== undefined));
    expect(retries.length).toBeGreaterThan(0);
    await assertValidVxml(client.faultDocuments);
    for (const t of traces)
      await expectSettledSession(fx.gw.gateway.sessions, fx.store, fx.app.streamId, t.callId);
    await expectBookingHistories(
      fx.gw.url,
      fx.app,
      traces.map((t) => t.callId),
    );
    console.info(
      `[redis-blink] frozen at ${frozenAt} ms for ${freezeMs} ms; probes ${Object.entries(probes)
        .map(([k, p]) => `${k} ${p.status} in ${p.ms} ms`)
        .join(', ')}; ` +
        `${traces.reduce((a, t) => a + t.waits, 0)} wait documents, ${retries.length} retry documents (max retry ${Math.max(...retries.map((d) => Number(d.retry)))}), ${Date.now() - started} ms in all`,
    );
  }

  it('when Redis freezes for 3 s in the middle of 10 calls, then turns get retry documents, JSON APIs and /readyz 503, and every call completes after it with each turn once', async () => {
    await callsThroughBlink(3_000);
  }, 90_000);

  // the channel and settings are read through 2 s caches: this outage outlives them
  it('when Redis freezes for 6 s, longer than the webhook caches live, then calls still get retry documents and complete after it', async () => {
    await callsThroughBlink(6_000);
  }, 90_000);
});
