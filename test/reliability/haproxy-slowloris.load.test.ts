/**
 * The reference deployment under one slowloris client (issue 38, item 5): a client at another
 * address (127.0.0.2, a child process) keeps 5,000 connections to HAProxy sending their headers a
 * byte a second, and opens them again when they are closed. HAProxy's per-source limits leave it
 * DEPLOY_MAX_CONN_PER_SOURCE (100) at a time and its header timeout ends those, so booking calls from
 * 127.0.0.1 keep their turn times: their p99 stays within 3× of the baseline taken in the same run
 * before the attack (ratios only). Before these limits, one such client took turn p99 from ~200 ms
 * to 7 s (HAProxy's 4,096 connections were shared with no limit per source).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteKeys } from '../helpers/redis-keys.js';
import { BOOKING, expectBooked } from './booking-call.js';
import { provisionIvrApp, type ProvisionedApp } from './gateway-processes.js';
import {
  deploymentPrefix,
  startReferenceDeployment,
  type ReferenceDeployment,
} from './reference-deployment.js';
import { RoundRobinClient, runScriptedCall, type Answer } from './scripted-browser.js';

const ATTACK_CONNECTIONS = 5_000;
const ATTACKER_ADDRESS = '127.0.0.2';
const CALLS = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Times every request it sends. */
class TimedClient extends RoundRobinClient {
  readonly times: number[] = [];
  override async post(path: string, params: Record<string, string>, only?: string): Promise<Answer> {
    const at = performance.now();
    const answer = await super.post(path, params, only);
    this.times.push(performance.now() - at);
    return answer;
  }
}

const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)]!;
};

interface AttackStats {
  open: number;
  tried: number;
  opened: number;
  ended: number;
}

describe.skipIf(!inject('haproxyAvailable') || !inject('redisAvailable'))(
  'reference deployment under a slowloris client',
  () => {
    const redisUrl = inject('redisUrl');
    let deployment: ReferenceDeployment | undefined;
    let app: ProvisionedApp;
    let attacker: ChildProcess | undefined;

    beforeAll(async () => {
      deployment = await startReferenceDeployment({
        redisUrl,
        keyPrefix: deploymentPrefix(inject('testRunPrefix')),
      });
      app = await provisionIvrApp(deployment.url, deployment.adminToken);
    }, 120_000);

    afterAll(async () => {
      attacker?.kill('SIGKILL');
      await deployment?.stop();
      if (deployment) await deleteKeys(redisUrl, deployment.keyPrefix);
    }, 60_000);

    /** Rounds of CALLS concurrent booking calls; every request's time. */
    async function callTimes(rounds: number, tag: string): Promise<number[]> {
      const client = new TimedClient([deployment!.url]);
      for (let r = 0; r < rounds; r++) {
        const traces = await Promise.all(
          Array.from({ length: CALLS }, (_, i) =>
            runScriptedCall({
              client,
              startPath: app.webhookPath,
              callId: `call-${tag}-${r}-${i}-${deployment!.keyPrefix}`,
              say: BOOKING,
            }),
          ),
        );
        traces.forEach(expectBooked);
      }
      return client.times;
    }

    it(`when one client holds ${ATTACK_CONNECTIONS} slow-header connections, then other callers' turn p99 stays within 3x of the baseline`, async () => {
      const d = deployment!;
      await callTimes(1, 'warm');
      const baseline = await callTimes(4, 'base');

      const { port } = new URL(d.url);
      attacker = fork(
        fileURLToPath(new URL('./slowloris-client.ts', import.meta.url)),
        ['127.0.0.1', port, String(ATTACK_CONNECTIONS), ATTACKER_ADDRESS],
        { execArgv: ['--import', 'tsx'] },
      );
      const ask = (msg?: string) =>
        new Promise<AttackStats & { started?: number }>((resolve, reject) => {
          attacker!.once('message', (m) => resolve(m as AttackStats));
          attacker!.once('exit', (code) => reject(new Error(`slowloris client exited ${code}`)));
          if (msg) attacker!.send(msg);
        });
      await ask(); // all started
      await sleep(3_000); // the attack in full swing: connections held, refused and opened again

      const attacked = await callTimes(4, 'attack');
      const stats = await ask('stats');
      attacker.send('stop');
      attacker = undefined;

      const ratio = p99(attacked) / p99(baseline);
      const frontend = (await d.stats()).find((s) => s.pxname === 'ivr' && s.svname === 'FRONTEND')!;
      console.info(
        `[haproxy-slowloris] baseline p99 ${p99(baseline).toFixed(1)} ms (${baseline.length} requests), under attack p99 ${p99(attacked).toFixed(1)} ms (${attacked.length}), ratio ${ratio.toFixed(2)}; ` +
          `attacker: ${stats.open} open now, ${stats.tried} tried, ${stats.opened} opened, ${stats.ended} ended; HAProxy denied ${frontend.dcon} connections, ${frontend.scur} sessions now`,
      );
      expect(ratio).toBeLessThanOrEqual(3);
      // the attacker kept trying, held no more than its share, and HAProxy turned the rest away
      expect(stats.tried).toBeGreaterThan(ATTACK_CONNECTIONS);
      expect(stats.open).toBeLessThanOrEqual(100);
      expect(Number(frontend.dcon)).toBeGreaterThan(ATTACK_CONNECTIONS - 100);
    }, 240_000);
  },
);
