/**
 * One tenant's large agent upload must not stall another tenant's calls. The service is built as
 * `npm start` builds it (`npm run build`) and started with the start script's command, so the
 * training threads run from the compiled files. 20 booking calls run on one app, first alone (the
 * baseline, in the same run), then while a ~1 MB agent is uploaded to another app and trained:
 * the p99 turn time stays within 3× of the baseline's, and /readyz answers throughout. Nothing here
 * judges a duration by itself: the upload's turn times are compared with the baseline's.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAgentWith } from '../../src/agent/index.js';
import { createDemoConnection } from '../../sandbox/demo-connection.js';
import { largeAgentDefinition } from '../helpers/large-agent.js';
import { TimedClient, bookingRound, eventLoopLagMax, p99 } from '../helpers/timed-client.js';
import {
  deleteKeys,
  provisionIvrApp,
  sharedEnv,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from './gateway-processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CALLS = 20;
/** How long a browser plays a document's prompts before the caller answers (far shorter than real speech). */
const PROMPT_MS = 400;
/** Rounds of 20 calls in the baseline: enough turns that one pause of the machine does not set its p99. */
const BASELINE_ROUNDS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** node's arguments of the start script (`node <flags> dist/main.js`). */
function startArgs(): string[] {
  const scripts = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const [node, ...args] = scripts.start!.split(/\s+/);
  expect(node).toBe('node');
  return args;
}

describe.skipIf(!inject('redisAvailable'))('a large agent upload while other calls run', () => {
  const redisUrl = inject('redisUrl');
  let env: Record<string, string>;
  let gw: GatewayProcess;
  let callsApp: ProvisionedApp;
  let uploadApp: ProvisionedApp;

  beforeAll(async () => {
    // what `npm start` runs first (prestart): the compiled service, with the Lua scripts beside it
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT });
    env = sharedEnv(redisUrl);
    gw = await startGatewayProcess('built', env, startArgs());
    [callsApp, uploadApp] = await Promise.all([
      provisionIvrApp(gw.url, env.ADMIN_TOKEN!),
      provisionIvrApp(gw.url, env.ADMIN_TOKEN!),
    ]);
  }, 180_000);

  afterAll(async () => {
    await gw?.proc.stop('SIGTERM');
    if (env) await deleteKeys(redisUrl, env.KEY_PREFIX!);
  }, 30_000);

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${gw.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${env.ADMIN_TOKEN}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  /** 20 booking calls at once on the calls app, each caller answering after the prompts; each must end booked. */
  const round = (client: TimedClient, tag: string) =>
    bookingRound(client, {
      startPath: callsApp.webhookPath,
      calls: CALLS,
      promptMs: PROMPT_MS,
      callId: (i) => `call-upl-${tag}-${i}-${env.KEY_PREFIX}`,
    });

  it('when a ~1 MB agent is uploaded to one app while 20 calls run on another, then their p99 turn time stays within 3x of the same calls without the upload, and /readyz answers throughout', async () => {
    const client = new TimedClient([gw.url]);
    // for the log: a pause of the test's own process delays every answer it waits for
    const own = monitorEventLoopDelay({ resolution: 10 });
    own.enable();
    const readyz: Array<{ at: number; ms: number; status: number }> = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const at = performance.now();
        const status = await fetch(`${gw.url}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        readyz.push({ at, ms: performance.now() - at, status });
        await sleep(50);
      }
    })();

    // warm-up (not counted), then the baseline: the same calls with no upload
    await round(client, 'warm');
    await eventLoopLagMax(gw.url);
    const baselineFrom = performance.now();
    for (let i = 0; i < BASELINE_ROUNDS; i++) await round(client, `base${i}`);
    const baselineTo = performance.now();
    const baselineLag = await eventLoopLagMax(gw.url);
    const ownBaseline = Math.round(own.max / 1e6);
    own.reset();

    const agent = largeAgentDefinition(1_000_000, {
      base: demoAgentWith(await createDemoConnection(gw.url, env.ADMIN_TOKEN!)),
    });
    const bytes = JSON.stringify(agent).length;
    const uploadFrom = performance.now();
    const put = await admin('PUT', `/api/admin/apps/${uploadApp.streamId}/agent`, agent);
    const putMs = performance.now() - uploadFrom;
    expect(put.status, JSON.stringify(put.body)).toBe(202);
    expect(put.body.state).toBe('training');
    // the calls go on, round after round, until the new agent is live
    let live: any;
    const watcher = (async () => {
      for (;;) {
        const s = await admin('GET', `/api/admin/apps/${uploadApp.streamId}/agent/status`);
        if (s.body.state !== 'training') return (live = s.body);
        await sleep(200);
      }
    })();
    let rounds = 0;
    while (live === undefined) await round(client, `upload${rounds++}`);
    await watcher;
    const uploadTo = performance.now();
    const uploadLag = await eventLoopLagMax(gw.url);
    const ownUpload = Math.round(own.max / 1e6);
    own.disable();
    polling = false;
    await poller;

    expect(live).toMatchObject({ state: 'ready', liveVersion: put.body.latestVersion });
    const baseline = client.within(baselineFrom, baselineTo);
    const during = client.within(uploadFrom, uploadTo);
    const readyzDuring = readyz.filter((r) => r.at >= uploadFrom && r.at < uploadTo);
    console.info(
      `[agent-upload-load] ${bytes} bytes, upload answered in ${putMs.toFixed(0)} ms, trained in ${((uploadTo - uploadFrom) / 1000).toFixed(1)} s; ` +
        `turn p99 ${p99(baseline).toFixed(0)} ms over ${baseline.length} baseline turns, ${p99(during).toFixed(0)} ms over ${during.length} turns during the upload ` +
        `(max ${Math.max(...baseline).toFixed(0)} / ${Math.max(...during).toFixed(0)} ms); /readyz ${readyzDuring.length} answers during the upload, max ${Math.max(...readyzDuring.map((r) => r.ms)).toFixed(0)} ms; ` +
        `longest event-loop delay in the service ${baselineLag} ms in the baseline, ${uploadLag} ms during the upload; in the test's own ${ownBaseline} / ${ownUpload} ms`,
    );
    // the calls ran during the training: at least as many turns as one round has
    expect(rounds).toBeGreaterThan(0);
    expect(during.length).toBeGreaterThanOrEqual(baseline.length / BASELINE_ROUNDS);
    expect(p99(during)).toBeLessThanOrEqual(3 * p99(baseline));
    // /readyz answered 200 all along, and no slower than a turn of the baseline could be
    expect(readyz.every((r) => r.status === 200)).toBe(true);
    expect(readyzDuring.length).toBeGreaterThan(0);
    expect(p99(readyzDuring.map((r) => r.ms))).toBeLessThanOrEqual(3 * p99(baseline));
    expect(gw.proc.output()).not.toContain('agent training failed');
  }, 300_000);
});
