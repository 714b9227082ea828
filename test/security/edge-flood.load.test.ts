/**
 * Issue 38, finding 1 (and 7 under load): anonymous clients flood the service with 900 KB JSON
 * bodies of 45,000 keys, and with wrong admin tokens, while booking calls run on another app. The
 * service runs as its own process (`node --import tsx src/main.ts`, Redis store), so the flood's
 * cost to its event loop shows in the calls' turn times. Baseline first (the same calls, no flood),
 * in the same run; then the same calls under the flood: every flood request is answered 4xx, and
 * the calls' p99 turn time stays within 3x of the baseline's. Nothing here judges a duration by
 * itself.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  deleteKeys,
  provisionIvrApp,
  sharedEnv,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from '../reliability/gateway-processes.js';
import { TimedClient, bookingRound, eventLoopLagMax, p99 } from '../helpers/timed-client.js';

const CALLS = 10;
const PROMPT_MS = 200;
const ROUNDS = 3;
/**
 * Flood clients, and the pause each takes between its requests: bounded (others share the
 * machine, and this process sends the flood too), still several times the 2.5 a second.
 */
const FLOODERS = 2;
const FLOOD_PAUSE_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The hostile body: 45,000 keys in about 900 KB of JSON. */
function hostileBody(): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < 45_000; i++) parts.push(`"key-${String(i).padStart(12, '0')}":1`);
  return Buffer.from(`{${parts.join(',')}}`);
}

/** One request with a raw body (chunked when `chunked`); its status, or the network error's code. */
function send(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  chunked = false,
): Promise<number | string> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          ...headers,
          ...(chunked ? {} : { 'Content-Length': String(body.length) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    req.end(body);
  });
}

describe.skipIf(!inject('redisAvailable'))('an anonymous flood of large bodies and guessed tokens', () => {
  const redisUrl = inject('redisUrl');
  let env: Record<string, string>;
  let gw: GatewayProcess;
  let callsApp: ProvisionedApp;
  let hookApp: ProvisionedApp;

  beforeAll(async () => {
    env = sharedEnv(redisUrl);
    gw = await startGatewayProcess('edge-flood', env);
    [callsApp, hookApp] = await Promise.all([
      provisionIvrApp(gw.url, env.ADMIN_TOKEN!),
      provisionIvrApp(gw.url, env.ADMIN_TOKEN!),
    ]);
  }, 180_000);

  afterAll(async () => {
    await gw?.proc.stop('SIGTERM');
    if (env) await deleteKeys(redisUrl, env.KEY_PREFIX!);
  }, 30_000);

  const round = (client: TimedClient, tag: string) =>
    bookingRound(client, {
      startPath: callsApp.webhookPath,
      calls: CALLS,
      promptMs: PROMPT_MS,
      callId: (i) => `call-flood-${tag}-${i}-${env.KEY_PREFIX}`,
    });

  it("when two clients send 900 KB bodies of 45,000 keys and wrong admin tokens, then each is answered 4xx and another app's turn p99 stays within 3x of its baseline", async () => {
    const body = hostileBody();
    expect(body.length).toBeGreaterThan(880_000);
    const targets: Array<{
      name: string;
      path: string;
      headers: Record<string, string>;
      chunked?: boolean;
      expect: number[];
    }> = [
      { name: 'operator API, no credential', path: '/api/admin/apps', headers: {}, expect: [401] },
      {
        name: 'operator API, chunked, no credential',
        path: '/api/admin/apps',
        headers: {},
        chunked: true,
        expect: [401],
      },
      {
        name: 'operator API, wrong token',
        path: '/api/admin/apps',
        headers: { Authorization: 'Bearer not-the-admin-token-000' },
        expect: [401, 429],
      },
      {
        name: 'public tables API, no credential',
        path: '/api/public/tables/rows',
        headers: {},
        expect: [401],
      },
      { name: 'webhook (valid token in the query)', path: hookApp.webhookPath, headers: {}, expect: [413] },
      { name: 'webhook, chunked', path: hookApp.webhookPath, headers: {}, chunked: true, expect: [413] },
      { name: 'console sign-in', path: '/api/console/session', headers: { Origin: gw.url }, expect: [413] },
    ];
    const client = new TimedClient([gw.url]);
    await round(client, 'warm');
    await eventLoopLagMax(gw.url);
    const baselineFrom = performance.now();
    for (let i = 0; i < ROUNDS; i++) await round(client, `base${i}`);
    const baselineTo = performance.now();
    const baselineLag = await eventLoopLagMax(gw.url);

    let flooding = true;
    const answers: Array<{ target: string; status: number | string; ok: boolean }> = [];
    let next = 0;
    const flooder = async () => {
      while (flooding) {
        const t = targets[next++ % targets.length]!;
        const status = await send(gw.url, t.path, t.headers, body, t.chunked);
        answers.push({ target: t.name, status, ok: typeof status === 'number' && t.expect.includes(status) });
        await sleep(FLOOD_PAUSE_MS);
      }
    };
    const floodFrom = performance.now();
    const flood = Promise.all(Array.from({ length: FLOODERS }, flooder));
    await sleep(500);
    for (let i = 0; i < ROUNDS; i++) await round(client, `flood${i}`);
    const floodTo = performance.now();
    flooding = false;
    await flood;
    const floodLag = await eventLoopLagMax(gw.url);

    const baseline = client.within(baselineFrom, baselineTo);
    const during = client.within(floodFrom, floodTo);
    const byTarget = Object.fromEntries(
      targets.map((t) => [
        t.name,
        [...new Set(answers.filter((a) => a.target === t.name).map((a) => a.status))].join('/'),
      ]),
    );
    const seconds = (floodTo - floodFrom) / 1000;
    console.info(
      `[edge-flood] ${answers.length} flood requests (${(answers.length / seconds).toFixed(1)}/s, ${((answers.length * body.length) / 1e6 / seconds).toFixed(0)} MB/s) over ${seconds.toFixed(1)} s; ` +
        `turn p99 ${p99(baseline).toFixed(0)} ms over ${baseline.length} baseline turns, ${p99(during).toFixed(0)} ms over ${during.length} turns under the flood ` +
        `(ratio ${(p99(during) / p99(baseline)).toFixed(2)}); longest event-loop delay ${baselineLag} ms / ${floodLag} ms; answers ${JSON.stringify(byTarget)}`,
    );
    expect(
      answers.filter((a) => !a.ok),
      JSON.stringify(answers.filter((a) => !a.ok).slice(0, 5)),
    ).toEqual([]);
    expect(answers.length).toBeGreaterThanOrEqual(targets.length * 4);
    expect(p99(during)).toBeLessThanOrEqual(3 * p99(baseline));
  }, 300_000);
});
