/**
 * The Redis fault suites' setup: a redis-server the test controls (its own loopback port, no
 * persistence), the whole service in process on it (composeGateway with the production Redis
 * client settings), an IVR app provisioned over HTTP, and probes of the JSON endpoints (their time
 * is printed, never judged: the suites assert on what answered and in which order).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { RedisStore } from '../../src/store/index.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-processes.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { provisionIvrApp, type ProvisionedApp } from './gateway-processes.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface FaultFixture {
  redis: RedisServer;
  /** The TCP proxy the service reaches Redis through (with `viaProxy`). */
  proxy?: TcpProxy;
  store: RedisStore;
  gw: RunningGateway;
  app: ProvisionedApp;
  close(): Promise<void>;
}

/**
 * `commandTimeoutMs` replaces the production client's command timeout: a suite that sets it past
 * its own length can tell an answer the client gave at once from one it held until the timeout.
 * `storeRetryBudgetMs` replaces the turns' store retry budget (STORE_RETRY_BUDGET_MS);
 * `redisArgs` go to the redis-server (e.g. a save point, so that a stop keeps the data).
 */
export async function startFaultFixture(
  opts: {
    viaProxy?: boolean;
    commandTimeoutMs?: number;
    storeRetryBudgetMs?: number;
    redisArgs?: string[];
  } = {},
): Promise<FaultFixture> {
  const redis = await startRedisServer(opts.redisArgs ? { args: opts.redisArgs } : {});
  const proxy = opts.viaProxy ? await startTcpProxy(redis.port) : undefined;
  try {
    const store = await RedisStore.connect({
      url: proxy?.url ?? redis.url,
      prefix: `fault-${randomUUID().slice(0, 8)}:`,
      ...(opts.commandTimeoutMs ? { commandTimeoutMs: opts.commandTimeoutMs } : {}),
    });
    const gw = await startGateway({
      store,
      config: {
        turnDeadlineMs: 2_500,
        ...(opts.storeRetryBudgetMs !== undefined ? { storeRetryBudgetMs: opts.storeRetryBudgetMs } : {}),
      },
    });
    const app = await provisionIvrApp(gw.url, gw.config.adminToken);
    return {
      redis,
      ...(proxy ? { proxy } : {}),
      store,
      gw,
      app,
      async close() {
        await gw.close().catch(() => undefined);
        await store.close();
        await proxy?.close();
        await redis.close();
      },
    };
  } catch (err) {
    await proxy?.close();
    await redis.close();
    throw err;
  }
}

export interface Probe {
  status: number;
  /** How long it took, for the log only. */
  ms: number;
  body: any;
  retryAfter: string | null;
}

async function timed(url: string, headers: Record<string, string> = {}): Promise<Probe> {
  const t0 = Date.now();
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, ms: Date.now() - t0, body, retryAfter: res.headers.get('retry-after') };
}

export interface Probes {
  readyz: Probe;
  adminApps: Probe;
  history: Probe;
}

/** /readyz, an operator read and a getMessages read, at once. */
export async function probeJson(fx: FaultFixture): Promise<Probes> {
  const q = new URLSearchParams({ userId: 'nobody', channelType: 'ivr' });
  const [readyz, adminApps, history] = await Promise.all([
    timed(`${fx.gw.url}/readyz`),
    timed(`${fx.gw.url}/api/admin/apps`, { Authorization: `Bearer ${fx.gw.config.adminToken}` }),
    timed(`${fx.gw.url}/api/public/bot/${fx.app.streamId}/getMessages?${q}`, { auth: fx.app.historyJwt }),
  ]);
  return { readyz, adminApps, history };
}

/** Every probe answered 503 in the contract's error shape (code store_unavailable). */
export function expectAll503(p: Probes): void {
  for (const [name, probe] of Object.entries(p)) {
    expect(probe.status, `${name}: ${JSON.stringify(probe.body)}`).toBe(503);
    expect(probe.body?.errors?.[0]?.code, name).toBe('store_unavailable');
    expect(typeof probe.body?.errors?.[0]?.msg, name).toBe('string');
  }
  expect(p.adminApps.retryAfter).not.toBeNull();
}

/** /readyz's status now (0 when the request itself failed). */
export const readyzStatus = (fx: FaultFixture): Promise<number> =>
  fetch(`${fx.gw.url}/readyz`).then(
    (x) => x.status,
    () => 0,
  );

/**
 * Polls /readyz until 200; the time it took, for the log. `timeoutMs` only stops a hang: it is
 * far past any recovery the suites expect, and no test judges the time returned.
 */
export async function waitReady(fx: FaultFixture, timeoutMs = 30_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const r = await readyzStatus(fx);
    if (r === 200) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`/readyz not 200 within ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
