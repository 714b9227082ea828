/**
 * Redis really stopped (SIGTERM, its data saved on the way down by a save point) for 6 s in the
 * middle of 24 live calls, then started again with its data. While it is down, every store command
 * fails at once, so every turn that meets the outage is kept on the line by retry documents whose
 * pauses grow, for up to the store retry budget (12 s by default) counted from the turn's first
 * fault: longer than the outage, so no caller may hear the error document. Before the budget, the
 * retry document resubmitted three times with no pause and most of these turns ended in the error
 * document. Nothing here judges a duration: what answered, in which order, and what the store and
 * the histories hold afterwards are what is checked.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { BOOKING, expectBooked, expectBookingHistories, expectSettledSession } from './booking-call.js';
import { readyzStatus, startFaultFixture, waitReady, type FaultFixture } from './fault-fixture.js';
import { RoundRobinClient, runScriptedCall, type CallTrace } from './scripted-browser.js';

const CALLS = 24;
const OUTAGE_MS = 6_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!inject('redisServerAvailable'))('Redis stopped for 6 s under live calls', () => {
  let fx: FaultFixture;

  beforeAll(async () => {
    // a save point: the stop writes the data set to disk, and the start reads it back
    fx = await startFaultFixture({ redisArgs: ['--save', '3600 1'] });
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  }, 30_000);

  it('when Redis is stopped for 6 s in the middle of 24 calls, then every call goes on to its end through retry documents, none gets the error document, and every history is exact', async () => {
    expect(fx.gw.config.storeRetryBudgetMs).toBeGreaterThan(OUTAGE_MS);
    const client = new RoundRobinClient([fx.gw.url]);
    let docs = 0;
    let answeredWhileDown = 0;
    let down = false;
    let outage: Promise<number> | undefined;
    const started = Date.now();
    /** Stops Redis for the outage; /readyz's status at its end. */
    const stopFor = async (): Promise<number> => {
      await fx.redis.stop();
      down = true;
      try {
        await sleep(OUTAGE_MS);
        return await readyzStatus(fx);
      } finally {
        down = false;
        await fx.redis.start();
      }
    };
    const traces: CallTrace[] = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        runScriptedCall({
          client,
          startPath: fx.app.webhookPath,
          callId: `call-outage-${i}-${started}`,
          say: BOOKING,
          // a browser plays the hold prompt before it resubmits
          holdMs: 300,
          maxSteps: 200,
          onDocument: () => {
            if (down) answeredWhileDown++;
            if (++docs === 2 * CALLS) outage = stopFor();
          },
        }),
      ),
    );
    // /readyz said the store was gone until the end of the outage
    expect(await outage).toBe(503);
    await waitReady(fx);

    // the outage met the calls: turns answered retry documents while Redis was down
    const retries = traces.flatMap((t) => t.docs.filter((d) => d.retry !== undefined));
    expect(answeredWhileDown).toBeGreaterThan(0);
    expect(retries.length).toBeGreaterThanOrEqual(CALLS / 2);
    // …and every call went on after it, to its end, without the error document
    const errors = traces.flatMap((t) =>
      t.docs.filter((d) => d.kind === 'error').map((d) => `${t.callId}: ${d.error}`),
    );
    expect(errors).toEqual([]);
    traces.forEach(expectBooked);
    await assertValidVxml(client.faultDocuments);
    // nothing lost, nothing doubled: the sessions settled, each history message by message
    for (const t of traces)
      await expectSettledSession(fx.gw.gateway.sessions, fx.store, fx.app.streamId, t.callId);
    await expectBookingHistories(
      fx.gw.url,
      fx.app,
      traces.map((t) => t.callId),
    );
    console.info(
      `[redis-outage] ${CALLS} calls, Redis down for ${OUTAGE_MS} ms; ${answeredWhileDown} documents answered while down, ` +
        `${retries.length} retry documents (max retry ${Math.max(...retries.map((d) => Number(d.retry)))}), ${traces.reduce((a, t) => a + t.waits, 0)} wait documents, ${Date.now() - started} ms in all`,
    );
  }, 120_000);
});
