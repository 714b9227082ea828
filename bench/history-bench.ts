/**
 * History at scale: fills Redis through the recorder's own key layout (historyLayout ops, written
 * with store.bulk) and times filtered getMessages pages through the service function the routes use
 * (and a few through real HTTP) at a small and a large size.
 * Target: p99 at 1,000,000 messages ≤ 2 × p99 at 10,000.
 *
 * Method: two apps get the same users' histories (same generator, same seeds): the small one stops
 * at 10,000 messages, the large one holds 1,000,000. Each measure is timed first on the small app
 * alone (before the large fill: `_alone` fields), then on both apps alternating request by
 * request, so GC pauses and a busy shared machine hit both sizes alike; p99Ratio compares those.
 *
 *   npm run bench:history                 1,000,000 messages, 10,000 users, 100,000 sessions
 *   npm run bench:history -- --smoke      tiny sizes (CI)
 * Env: REDIS_URL (default redis://127.0.0.1:6379), HISTORY_BENCH_MESSAGES, HISTORY_BENCH_USERS,
 * HISTORY_BENCH_SESSIONS, HISTORY_BENCH_SMALL (first checkpoint, default 10,000),
 * HISTORY_BENCH_ITERATIONS (timed pages per measure and size, default 3,000: the p99 is then the 30th slowest page, not the 10th, so a few stalls of a shared machine move it less).
 * Keys go under a random prefix, removed at the end (SCAN + UNLINK on that prefix only).
 * One JSON line per fill phase and per measure.
 */
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.js';
import { AppsService } from '../src/admin/index.js';
import { createHistoryComponent, type HistoryParams, type HistoryVersion } from '../src/history/index.js';
import {
  createAuthenticator,
  createLogger,
  createMetrics,
  createSealer,
  signHs256,
  testConfig,
  type RateLimiterFactory,
} from '../src/platform/index.js';
import { isStoreUnavailable, rateLimitersOf, RedisStore } from '../src/store/index.js';
import { line } from './lib/bench-env.js';
import { fillHistory, INTENTS, type Probe } from './lib/fill-history.js';

const smoke = process.argv.includes('--smoke');
const env = (name: string, normal: number, small: number): number => {
  const v = process.env[name];
  return v ? Math.max(1, Math.floor(Number(v))) : smoke ? small : normal;
};
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOTAL = env('HISTORY_BENCH_MESSAGES', 1_000_000, 4_000);
const USERS = env('HISTORY_BENCH_USERS', 10_000, 40);
const SESSIONS = env('HISTORY_BENCH_SESSIONS', 100_000, 400);
const SMALL = Math.min(env('HISTORY_BENCH_SMALL', 10_000, 1_000), TOTAL);
const ITERATIONS = env('HISTORY_BENCH_ITERATIONS', 3_000, 40);
const PREFIX = `bench-history:${randomUUID().slice(0, 8)}:`;
const NOW = Date.now();
const D = 24 * 3600 * 1000;

const SESSIONS_PER_USER = Math.max(1, Math.round(SESSIONS / USERS));
const MSGS_PER_SESSION = Math.max(2, Math.round(TOTAL / (USERS * SESSIONS_PER_USER)));
const MSGS_PER_USER = SESSIONS_PER_USER * MSGS_PER_SESSION;
const SHAPE = { sessionsPerUser: SESSIONS_PER_USER, msgsPerSession: MSGS_PER_SESSION, now: NOW };

type Measure = {
  name: string;
  via: 'service' | 'http';
  version: HistoryVersion;
  params: (p: Probe, i: number) => HistoryParams;
  path?: 'bot' | 'admin';
};

const pick = <T>(xs: T[], i: number): T => xs[i % xs.length]!;
const MEASURES: Measure[] = [
  {
    name: 'user-page',
    via: 'service',
    version: 'v1',
    params: (p) => ({ userId: p.userId, channelType: 'ivr' }),
  },
  {
    name: 'user-by-from-v2-limit100',
    via: 'service',
    version: 'v2',
    params: (p) => ({ userId: p.from, channelType: 'ivr', limit: 100, includeSecureForm: false }),
  },
  {
    name: 'user-dates-forward',
    via: 'service',
    version: 'v1',
    params: (p) => ({
      userId: p.userId,
      channelType: 'ivr',
      forward: true,
      dateFrom: { ms: NOW - 6 * D, dateOnly: false },
      dateTo: { ms: NOW, dateOnly: false },
    }),
  },
  {
    name: 'user-skip-1-session',
    via: 'service',
    version: 'v1',
    params: (p) => ({ userId: p.userId, channelType: 'ivr', skip: 1 }),
  },
  {
    name: 'user-session',
    via: 'service',
    version: 'v1',
    params: (p, i) => ({ userId: p.userId, channelType: 'ivr', sessionId: pick(p.recentSessions, i) }),
  },
  {
    name: 'sessions-list-3',
    via: 'service',
    version: 'v1',
    params: (p, i) => ({
      channelType: 'ivr',
      sessionId: [...new Set([pick(p.recentSessions, i), pick(p.sessions, i + 1), pick(p.sessions, i + 2)])],
    }),
  },
  {
    name: 'user-and-tag',
    via: 'service',
    version: 'v1',
    params: (p, i) => ({ userId: p.userId, channelType: 'ivr', tags: { intent: pick(INTENTS, i) } }),
  },
  {
    name: 'user-msgId-older',
    via: 'service',
    version: 'v1',
    params: (p, i) => ({
      userId: p.userId,
      channelType: 'ivr',
      ...(p.recent.length ? { msgId: pick(p.recent, i).id, direction: -1 } : {}),
    }),
  },
  { name: 'app-page', via: 'service', version: 'v1', params: () => ({ channelType: 'ivr' }) },
  {
    name: 'app-page-v2-limit100',
    via: 'service',
    version: 'v2',
    params: () => ({ channelType: 'ivr', limit: 100, includeSecureForm: true }),
  },
  {
    name: 'app-skip-10-sessions',
    via: 'service',
    version: 'v1',
    params: () => ({ channelType: 'ivr', skip: 10 }),
  },
  {
    name: 'app-tag',
    via: 'service',
    version: 'v1',
    params: (_p, i) => ({ channelType: 'ivr', tags: { intent: pick(INTENTS, i) } }),
  },
  {
    name: 'http-user-page',
    via: 'http',
    version: 'v1',
    params: (p) => ({ userId: p.userId, channelType: 'ivr' }),
  },
  {
    name: 'http-app-page-v2-limit100-gzip',
    via: 'http',
    version: 'v2',
    params: () => ({ channelType: 'ivr', limit: 100, includeSecureForm: true }),
  },
];

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const store = await RedisStore.connect({ url: REDIS_URL, prefix: PREFIX, commandTimeoutMs: 30_000 });
  const config = testConfig();
  const apps = new AppsService(store, createSealer(config.masterKey));
  const metrics = createMetrics();
  const rateLimiters: RateLimiterFactory = rateLimitersOf(store);
  const history = createHistoryComponent({
    sessionMetas: new LRUCache({ max: 1_000 }),
    store,
    apps,
    metrics,
    rateLimiters,
    now: () => NOW,
    rateLimits: { perMinute: 1e9, perHour: 1e9 },
  });
  const authenticator = createAuthenticator({ adminToken: config.adminToken, lookup: apps, rateLimiters });
  const app = buildApp({
    config,
    logger: createLogger({ level: 'silent' }),
    metrics,
    authenticator,
    routes: history.routes,
    isReady: () => store.ping(),
    isStoreUnavailable,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const makeApp = async (name: string) => {
    const rec = await apps.createApp({ name, language: 'en', icon: 'https://cdn.example.com/bench.png' });
    const client = await apps.createApiApp(rec.streamId, { name: 'bench', scopes: ['chat-history'] });
    return {
      streamId: rec.streamId,
      token: signHs256({ appId: client.clientId, sub: 'bench' }, client.clientSecret),
      probes: [] as Probe[],
    };
  };
  type BenchApp = Awaited<ReturnType<typeof makeApp>>;

  const run = async (m: Measure, a: BenchApp, i: number): Promise<number> => {
    const params = m.params(pick(a.probes, i * 7), i);
    const t0 = performance.now();
    if (m.via === 'service') {
      await history.service.getMessages(a.streamId, m.version, params, 'body');
    } else {
      const body = JSON.stringify(params);
      const res = await fetch(
        `${base}/api/public/bot/${a.streamId}/${m.version === 'v1' ? 'getMessages' : 'getMessagesV2'}`,
        {
          method: 'POST',
          body,
          headers: { auth: a.token, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        },
      );
      if (res.status !== 200) throw new Error(`${m.name}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    return performance.now() - t0;
  };
  const stats = (times: number[]) => {
    const sorted = [...times].sort((x, y) => x - y);
    return { p50: +quantile(sorted, 0.5).toFixed(3), p99: +quantile(sorted, 0.99).toFixed(3) };
  };
  /** Times each measure on the given apps, alternating between them request by request. */
  const measure = async (m: Measure, targets: BenchApp[]) => {
    for (let i = 0; i < 20; i++) for (const a of targets) await run(m, a, i);
    const times = targets.map(() => [] as number[]);
    for (let i = 0; i < ITERATIONS; i++) {
      const order = i % 2 === 0 ? targets.map((_, k) => k) : targets.map((_, k) => targets.length - 1 - k);
      for (const k of order) times[k]!.push(await run(m, targets[k]!, i));
    }
    return times.map(stats);
  };
  const usedMemory = async () =>
    Math.round(Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0) / 1e6);

  try {
    line({
      phase: 'config',
      redis: REDIS_URL,
      prefix: PREFIX,
      messages: TOTAL,
      users: USERS,
      sessions: USERS * SESSIONS_PER_USER,
      messagesPerSession: MSGS_PER_SESSION,
      small: SMALL,
      iterations: ITERATIONS,
      smoke,
    });
    // two apps with the same users' histories: one stops at SMALL messages, one holds TOTAL
    const small = await makeApp('history bench small');
    const large = await makeApp('history bench large');
    const smallUsers = Math.max(1, Math.round(SMALL / MSGS_PER_USER));
    await fillHistory(store, SHAPE, small.streamId, 0, smallUsers, small.probes);
    small.probes = small.probes.slice(0, 50);
    const smallSize = smallUsers * MSGS_PER_USER;
    line({ phase: 'stored', app: 'small', messages: smallSize, redisUsedMemoryMB: await usedMemory() });
    const alone = new Map<string, { p50: number; p99: number }>();
    for (const m of MEASURES) alone.set(m.name, (await measure(m, [small]))[0]!);
    await fillHistory(store, SHAPE, large.streamId, 0, USERS, large.probes);
    large.probes = large.probes.slice(0, 50);
    const largeSize = USERS * MSGS_PER_USER;
    line({ phase: 'stored', app: 'large', messages: largeSize, redisUsedMemoryMB: await usedMemory() });
    let worst = 0;
    for (const m of MEASURES) {
      const [s, l] = await measure(m, [small, large]);
      const a = alone.get(m.name)!;
      const ratio = l!.p99 / s!.p99;
      worst = Math.max(worst, ratio);
      line({
        measure: m.name,
        via: m.via,
        version: m.version,
        small: smallSize,
        large: largeSize,
        [`p50_${smallSize}`]: s!.p50,
        [`p99_${smallSize}`]: s!.p99,
        [`p50_${largeSize}`]: l!.p50,
        [`p99_${largeSize}`]: l!.p99,
        p99Ratio: +ratio.toFixed(2),
        p50Ratio: +(l!.p50 / s!.p50).toFixed(2),
        [`p50_${smallSize}_alone`]: a.p50,
        [`p99_${smallSize}_alone`]: a.p99,
        p99RatioVsAlone: +(l!.p99 / a.p99).toFixed(2),
        target: 'p99Ratio <= 2',
        ok: ratio <= 2,
      });
    }
    line({
      summary: 'history-bench',
      worstP99Ratio: +worst.toFixed(2),
      ...(smoke
        ? { note: 'smoke sizes: a functional check, ratios are not meaningful' }
        : { ok: worst <= 2 }),
    });
  } finally {
    server.close();
    await store.close();
    await cleanup(redis);
    redis.disconnect();
  }
}

/** Removes every key under this run's prefix (and nothing else). */
async function cleanup(redis: Redis): Promise<void> {
  let cursor = '0';
  let removed = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 5000);
    cursor = next;
    if (keys.length) removed += await redis.unlink(...keys);
  } while (cursor !== '0');
  line({ phase: 'cleanup', prefix: PREFIX, keysRemoved: removed });
}

// interrupted or piped into a closed reader: still remove this run's keys
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    void cleanup(redis).finally(() => process.exit(130));
  });
}
process.stdout.on('error', () => undefined);

main().catch((err) => {
  process.stderr.write(`history bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
