/**
 * The reference deployment (deploy/: HAProxy in front of three instances on one Redis), started by
 * its own script with its own configuration file: one instance is killed with SIGKILL in the
 * middle of 30 concurrent calls through HAProxy, and every call goes on to its end without the
 * browser seeing a failure. Then the script stops and leaves no process behind, even when it is
 * killed itself.
 *
 * The calls are driven as in multi-instance.reliability.test.ts, but through HAProxy's one address: the
 * scripted browser would resend a request that failed on the network, and counts it, so the count
 * shows whether any failure got past HAProxy.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteKeys } from '../helpers/redis-keys.js';
import { BOOKING, expectBooked, expectBookingHistories } from './booking-call.js';
import { provisionIvrApp, type ProvisionedApp } from './gateway-processes.js';
import {
  deploymentPrefix,
  processRunning,
  startReferenceDeployment,
  type ReferenceDeployment,
} from './reference-deployment.js';
import { RoundRobinClient, runScriptedCall, type CallTrace } from './scripted-browser.js';

const CALLS = 30;
const VICTIM = 'gw2';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!inject('haproxyAvailable') || !inject('redisAvailable'))(
  'reference deployment: HAProxy in front of three instances',
  () => {
    const redisUrl = inject('redisUrl');
    let deployment: ReferenceDeployment | undefined;
    let app: ProvisionedApp;

    beforeAll(async () => {
      deployment = await startReferenceDeployment({
        redisUrl,
        keyPrefix: deploymentPrefix(inject('testRunPrefix')),
      });
      // the operator API through HAProxy too
      app = await provisionIvrApp(deployment.url, deployment.adminToken);
    }, 120_000);

    afterAll(async () => {
      await deployment?.stop();
      if (deployment) await deleteKeys(redisUrl, deployment.keyPrefix);
    }, 60_000);

    const server = async (name: string) =>
      (await deployment!.stats()).find((s) => s.pxname === 'gateways' && s.svname === name)!;

    it('when one of three instances behind HAProxy is killed with SIGKILL in the middle of 30 concurrent calls, then every call goes on to its end and the browser sees no failure', async () => {
      const d = deployment!;
      expect(Object.keys(d.pids).sort()).toEqual(['gw1', 'gw2', 'gw3', 'haproxy']);
      for (const name of ['gw1', 'gw2', 'gw3']) expect((await server(name)).status).toBe('UP');
      const before = await server('BACKEND');

      const client = new RoundRobinClient([d.url]);
      const docsBeforeKill = Math.floor(CALLS * (BOOKING.length + 1) * 0.45);
      let docs = 0;
      let killed = false;
      const traces: CallTrace[] = await Promise.all(
        Array.from({ length: CALLS }, (_, i) =>
          runScriptedCall({
            client,
            startPath: app.webhookPath,
            callId: `call-lb-${i}-${d.keyPrefix}`,
            say: BOOKING,
            onDocument: () => {
              if (++docs === docsBeforeKill) {
                killed = true;
                process.kill(d.pids[VICTIM]!, 'SIGKILL');
              }
            },
          }),
        ),
      );
      expect(killed).toBe(true);
      await d.waitForOutput(
        new RegExp(`deploy: ${VICTIM} \\(pid ${d.pids[VICTIM]}\\) exited with status 137`),
      );

      // every call ended booked, each turn asked once, every answer a 200 document
      traces.forEach(expectBooked);
      const outcomes = traces.reduce<Record<string, number>>(
        (acc, t) => ({ ...acc, [t.outcome]: (acc[t.outcome] ?? 0) + 1 }),
        {},
      );
      expect(outcomes).toEqual({ end: CALLS });
      // HAProxy sends what the victim never answered to another instance; what it cannot hide is an
      // answer cut off half-way (docs/reliability.md), which the document's error.badfetch catch sends
      // again, at most twice: no request of the browser needed more than that
      expect(client.mostResendsOfOneRequest).toBeLessThanOrEqual(2);
      await expectBookingHistories(
        d.url,
        app,
        traces.map((t) => t.callId),
      );

      // the victim was hit while it was gone, and HAProxy retried elsewhere; its health check took it out
      const after = await server('BACKEND');
      const retried =
        Number(after.wretr) - Number(before.wretr) + Number(after.wredis) - Number(before.wredis);
      expect(retried).toBeGreaterThan(0);
      while ((await server(VICTIM)).status !== 'DOWN') await sleep(100);
      expect(Number(after.hrsp_5xx) - Number(before.hrsp_5xx)).toBe(0);
      console.info(
        `[haproxy-deployment] ${CALLS} calls, ${client.requests} requests through HAProxy, ${VICTIM} killed after ${docsBeforeKill} documents; ` +
          `HAProxy retries ${Number(after.wretr) - Number(before.wretr)}, redispatches ${Number(after.wredis) - Number(before.wredis)}, ` +
          `${traces.reduce((a, t) => a + t.waits, 0)} wait documents, ${client.networkRetries} requests sent again by the browser`,
      );
    }, 120_000);

    it('when the deployment is stopped, then the script exits cleanly and every process it started is gone', async () => {
      const d = deployment!;
      const pids = Object.values(d.pids);
      deployment = undefined;
      expect(await d.stop(), d.script.output()).toBe(0);
      expect(d.script.output()).toContain('deploy: stopped');
      expect(pids.filter(processRunning)).toEqual([]);
      await deleteKeys(redisUrl, d.keyPrefix);
    }, 60_000);

    it('when the script itself is killed with SIGKILL, then every process it started goes with it', async () => {
      const d = await startReferenceDeployment({
        redisUrl,
        keyPrefix: deploymentPrefix(inject('testRunPrefix')),
      });
      try {
        const pids = Object.values(d.pids);
        expect(pids).toHaveLength(4);
        expect(pids.filter(processRunning)).toEqual(pids);
        d.script.signal('SIGKILL');
        expect(await d.script.exited).toBe(137);
        // the kernel sends each of them SIGKILL as the script goes (setpriv --pdeathsig): this ends
        // as soon as they are gone, and a process left behind keeps it waiting until the test's timeout
        while (pids.some(processRunning)) await sleep(50);
      } finally {
        await d.stop();
        await deleteKeys(redisUrl, d.keyPrefix);
      }
    }, 120_000);
  },
);
