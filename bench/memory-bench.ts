/**
 * What one live call costs (the target: at most 2 KB in Redis per live call).
 *
 * Composes the gateway in this process on Redis (random KEY_PREFIX), listens on an ephemeral port,
 * sets up the demo app through the operator API, then starts MEMORY_BENCH_CALLS calls through the
 * HTTP webhook, each brought to a mid-dialog state (the welcome, then "book a table": the agent is
 * asking for the party size). It reports:
 *   - Redis bytes per live call: MEMORY USAGE (SAMPLES 0) of the call's keys (`call:{c:<app>:<id>}:session`
 *     and `:lock`, store-keys.ts) as mean / p50 / max, plus a SCAN of every per-call key kind; the
 *     target is judged on these; the inspector's trace of the call (`:trace`, and its summary in the
 *     app's slot) is reported apart and with them (`redisBytesPerCallWithTrace`). CALL_TRACE=false
 *     and CALL_TRACE_DOCUMENTS=false from the environment turn the trace or its documents off;
 *   - the same for a few calls after every step of the whole script (the largest live state);
 *   - Redis used_memory growth per call (for information: it includes the history the turns record);
 *   - the process heap per call: heapUsed delta / calls after a full GC (global.gc when run with
 *     --expose-gc, else enabled at run time through v8.setFlagsFromString; noted when neither works).
 *
 *   npm run bench:memory                 10,000 calls
 *   npm run bench:memory -- --smoke      50 calls (CI)
 * Env: REDIS_URL, MEMORY_BENCH_CALLS (10000), MEMORY_BENCH_CONCURRENCY (32).
 * Exit code 0 when the run completed (target met or not), 1 when it could not run.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Redis } from 'ioredis';
import { composeGateway, type Gateway } from '../src/compose.js';
import { createLogger, createMetrics, loadConfig } from '../src/platform/index.js';
import { RedisStore, storeKeys } from '../src/store/index.js';
import {
  envNumber,
  line,
  machine,
  note,
  quantile,
  randomPrefix,
  redisUrl,
  round,
  smoke,
} from './lib/bench-env.js';
import { CALL_SCRIPT, checkDocument, stepParams, turnOf } from './lib/call-script.js';
import { setupDemoApp } from './lib/operator-setup.js';
import { connectRedis, removePrefix, scanKeys, usedMemory } from './lib/redis-prefix.js';

const CALLS = Math.round(envNumber('MEMORY_BENCH_CALLS', 10_000, 50));
const CONCURRENCY = Math.round(envNumber('MEMORY_BENCH_CONCURRENCY', 32, 4));
const WARMUP_CALLS = smoke ? 5 : 200;
const BY_STEP_CALLS = smoke ? 3 : 20;
const REDIS_URL = redisUrl();
const PREFIX = randomPrefix('memory');
const TARGET_BYTES = 2048;

/** A full GC when one can be forced; null otherwise (the heap figure is then noted as noisy). */
function findGc(): (() => void) | null {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    setFlagsFromString('--expose-gc');
    const fromVm = runInNewContext('gc') as unknown;
    return typeof fromVm === 'function' ? (fromVm as () => void) : null;
  } catch {
    return null;
  }
}

async function settledHeap(gc: (() => void) | null): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

/** Start + one turn: the call is left waiting for the party size. */
async function midDialogCall(baseUrl: string, path: string, callId: string): Promise<void> {
  let turn = '';
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(stepParams(i, callId, turn, '+15550001111')).toString(),
    });
    const body = await res.text();
    const problem = checkDocument('turn', CALL_SCRIPT[i]!, res.status, body);
    if (problem) throw new Error(`call ${callId} step ${i}: ${problem}\n${body.slice(0, 800)}`);
    turn = turnOf(body) ?? '';
  }
}

async function runCalls(baseUrl: string, path: string, tag: string, count: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await midDialogCall(baseUrl, path, `${tag}-${i}`);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  return (performance.now() - t0) / 1000;
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return {
    mean: round(sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1), 1),
    p50: quantile(sorted, 0.5),
    max: sorted[sorted.length - 1] ?? 0,
  };
};

/** The call's own keys (session, lock, the inspector's trace) and its summary in the app's slot. */
const callKeys = (streamId: string, callId: string): string[] => [
  storeKeys.callSession(streamId, callId),
  storeKeys.callLock(streamId, callId),
  storeKeys.callTrace(streamId, callId),
  storeKeys.callSummary(streamId, callId),
];

/** MEMORY USAGE of each call's keys (see callKeys), and the session's JSON length, pipelined. */
async function callCosts(redis: Redis, streamId: string, tag: string, count: number) {
  const session: number[] = [];
  const lock: number[] = [];
  const trace: number[] = [];
  const json: number[] = [];
  for (let from = 0; from < count; from += 1000) {
    const p = redis.pipeline();
    for (let i = from; i < Math.min(count, from + 1000); i++) {
      const id = `${tag}-${i}`;
      for (const k of callKeys(streamId, id)) p.call('MEMORY', 'USAGE', PREFIX + k, 'SAMPLES', '0');
      p.strlen(PREFIX + storeKeys.callSession(streamId, id));
    }
    const out = (await p.exec()) ?? [];
    const n = (v: [Error | null, unknown] | undefined): number => Number(v?.[1] ?? 0);
    for (let j = 0; j < out.length; j += 5) {
      session.push(n(out[j]));
      lock.push(n(out[j + 1]));
      trace.push(n(out[j + 2]) + n(out[j + 3]));
      json.push(n(out[j + 4]));
    }
  }
  const withoutTrace = session.map((s, i) => s + lock[i]!);
  const total = withoutTrace.map((b, i) => b + trace[i]!);
  return {
    total: stats(total),
    withoutTrace: stats(withoutTrace),
    session: stats(session),
    lock: { ...stats(lock), present: lock.filter((b) => b > 0).length },
    trace: stats(trace),
    sessionJsonChars: stats(json),
    missingSessions: session.filter((b) => b === 0).length,
  };
}

/** A few calls through the whole script, the call's Redis bytes measured after every step. */
async function costsByStep(
  redis: Redis,
  baseUrl: string,
  streamId: string,
  path: string,
  tag: string,
  calls: number,
) {
  const bytes: number[][] = CALL_SCRIPT.map(() => []);
  const withTrace: number[][] = CALL_SCRIPT.map(() => []);
  for (let c = 0; c < calls; c++) {
    const callId = `${tag}-${c}`;
    let turn = '';
    for (let i = 0; i < CALL_SCRIPT.length; i++) {
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(stepParams(i, callId, turn, '+15550001111')).toString(),
      });
      const body = await res.text();
      const problem = checkDocument('turn', CALL_SCRIPT[i]!, res.status, body);
      if (problem) throw new Error(`call ${callId} step ${i}: ${problem}\n${body.slice(0, 800)}`);
      turn = turnOf(body) ?? '';
      const each = await Promise.all(
        callKeys(streamId, callId).map(async (k) =>
          Number((await redis.call('MEMORY', 'USAGE', PREFIX + k, 'SAMPLES', '0')) ?? 0),
        ),
      );
      // the target is judged on the call's live state (session and lock); its trace is reported apart
      bytes[i]!.push(each[0]! + each[1]!);
      withTrace[i]!.push(each.reduce((a, b) => a + b, 0));
    }
  }
  return CALL_SCRIPT.map((step, i) => ({
    step: i,
    after: step.message || '(start)',
    ...stats(bytes[i]!),
    withTrace: stats(withTrace[i]!),
  }));
}

/** Every key under the prefix that belongs to a call, counted by kind (session, lock, doc, pending…). */
async function callKeyKinds(redis: Redis): Promise<Record<string, number>> {
  const kinds: Record<string, number> = {};
  await scanKeys(redis, `${PREFIX}call:*`, (keys) => {
    for (const k of keys) {
      const kind = /^call:\{c:[^}]*\}:([a-z-]+)/.exec(k.slice(PREFIX.length))?.[1] ?? 'other';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
  });
  return kinds;
}

/** CALL_TRACE and CALL_TRACE_DOCUMENTS from the environment, to measure the call's bytes with and without its trace. */
const traceSettings = (): Record<string, string> =>
  Object.fromEntries(
    (['CALL_TRACE', 'CALL_TRACE_DOCUMENTS'] as const).flatMap((k) =>
      process.env[k] ? [[k, process.env[k]]] : [],
    ),
  );

let redis: Redis | undefined;
let store: RedisStore | undefined;
let server: Server | undefined;
let gateway: Gateway | undefined;

async function main(): Promise<void> {
  const gc = findGc();
  line({
    bench: 'memory',
    phase: 'config',
    ...machine(),
    calls: CALLS,
    concurrency: CONCURRENCY,
    warmupCalls: WARMUP_CALLS,
    smoke,
    redis: REDIS_URL,
    prefix: PREFIX,
    gc: gc ? 'forced' : 'unavailable',
  });
  redis = await connectRedis(REDIS_URL);
  const adminToken = randomBytes(24).toString('base64url');
  const config = loadConfig({
    STORE: 'redis',
    REDIS_URL,
    KEY_PREFIX: PREFIX,
    MASTER_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    ...traceSettings(),
  });
  store = await RedisStore.connect({ url: REDIS_URL, prefix: PREFIX });
  gateway = composeGateway({
    config,
    store,
    logger: createLogger({ level: 'warn' }),
    metrics: createMetrics(),
  });
  await gateway.start();
  const s: Server = gateway.app.listen(0, '127.0.0.1');
  server = s;
  await new Promise((r) => s.once('listening', r));
  const baseUrl = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const app = await setupDemoApp(baseUrl, adminToken, 'memory bench');

  await runCalls(baseUrl, app.webhookPath, 'warmup', WARMUP_CALLS);
  const heapBefore = await settledHeap(gc);
  const redisBefore = await usedMemory(redis);
  const tag = `mem-${Date.now().toString(36)}`;
  const seconds = await runCalls(baseUrl, app.webhookPath, tag, CALLS);
  const heapAfter = await settledHeap(gc);
  const redisAfter = await usedMemory(redis);
  line({
    phase: 'calls',
    calls: CALLS,
    requests: CALLS * 2,
    seconds: round(seconds, 2),
    callsPerSec: round(CALLS / seconds, 1),
  });

  const costs = await callCosts(redis, app.streamId, tag, CALLS);
  const keyKinds = await callKeyKinds(redis);
  line({
    measure: 'redis-per-call',
    unit: 'bytes',
    keys: ['session', 'lock', 'trace', 'summary'],
    callTrace: config.callTrace,
    ...costs.total,
    withoutTrace: costs.withoutTrace,
    trace: costs.trace,
    session: costs.session,
    lock: costs.lock,
    sessionJsonChars: costs.sessionJsonChars,
    missingSessions: costs.missingSessions,
    callKeysByKind: keyKinds,
    liveCalls: CALLS + WARMUP_CALLS,
  });
  const bySteps = await costsByStep(
    redis,
    baseUrl,
    app.streamId,
    app.webhookPath,
    `${tag}-steps`,
    BY_STEP_CALLS,
  );
  const maxAnyStep = Math.max(...bySteps.map((b) => b.max));
  line({
    measure: 'redis-per-call-by-step',
    unit: 'bytes',
    calls: BY_STEP_CALLS,
    steps: bySteps,
    note: 'the whole script; after the last step the call has ended (its session stays until its TTL)',
  });
  const heapPerCall = (heapAfter - heapBefore) / CALLS;
  line({
    measure: 'heap-per-call',
    unit: 'bytes',
    perCall: round(heapPerCall, 1),
    heapUsedBefore: heapBefore,
    heapUsedAfter: heapAfter,
    gc: gc ? 'forced before each reading' : 'unavailable: figure includes garbage, treat as an upper bound',
  });
  line({
    measure: 'redis-used-memory-per-call',
    unit: 'bytes',
    perCall: round((redisAfter - redisBefore) / CALLS, 1),
    note: 'used_memory growth / calls: includes the history the two turns record and other runs on this Redis',
  });

  await shutdown();
  line({ phase: 'cleanup', prefix: PREFIX, keysRemoved: await removePrefix(redis, PREFIX) });
  const ok = costs.withoutTrace.max <= TARGET_BYTES;
  line({
    summary: 'memory-bench',
    cores: machine().cores,
    calls: CALLS,
    callTrace: config.callTrace,
    redisBytesPerCall: {
      mean: costs.withoutTrace.mean,
      p50: costs.withoutTrace.p50,
      max: costs.withoutTrace.max,
    },
    redisBytesPerCallWithTrace: { mean: costs.total.mean, p50: costs.total.p50, max: costs.total.max },
    heapBytesPerCall: round(heapPerCall, 1),
    gc: Boolean(gc),
    target: `<= ${TARGET_BYTES} bytes in Redis per live call (max over the calls)`,
    ok,
    meanOk: costs.withoutTrace.mean <= TARGET_BYTES,
    maxBytesAnyStep: maxAnyStep,
    okAnyStep: maxAnyStep <= TARGET_BYTES,
  });
}

async function shutdown(): Promise<void> {
  if (server) {
    const s = server;
    server = undefined;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  if (gateway) await gateway.stop().catch(() => undefined);
  gateway = undefined;
  if (store) await store.close().catch(() => undefined);
  store = undefined;
}

async function teardown(): Promise<void> {
  await shutdown();
  if (redis) {
    await removePrefix(redis, PREFIX).catch(() => undefined);
    redis.disconnect();
    redis = undefined;
  }
}

process.once('SIGINT', () => {
  note('interrupted: removing the keys');
  void teardown().finally(() => process.exit(130));
});

main()
  .then(() => {
    redis?.disconnect();
    process.exit(0);
  })
  .catch(async (err: unknown) => {
    process.stderr.write(`memory bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    await teardown();
    process.exit(1);
  });
