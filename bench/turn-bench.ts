/**
 * The webhook turn against its floor (a constant-document route, described below), in one run on one server.
 *
 * Starts the gateway as a separate process against Redis (random KEY_PREFIX, BENCH_MODE=true,
 * LOG_LEVEL=warn), sets up an app with the demo agent through the operator API, then measures with
 * autocannon, in this process, for a fixed duration each, in interleaved rounds (floor, turn, floor,
 * turn…: the neighbours' load on a shared machine drifts within seconds; interleaving spreads it
 * over both measures):
 *   - floor: `/bench/floor/:streamId` (same parsers and middleware, one store read and one write,
 *     a constant document) with the same urlencoded bodies as the turn;
 *   - turn:  `/ivr/hooks/:streamId`, N connections each a scripted caller (bench/lib/call-script.ts).
 * Each measure line carries the client's view (requests/s over every request; p50 and p99 of the
 * steady state, each round's connection ramp left out: see lib/load-run.ts; errors) and the server's own
 * time from its Prometheus histograms (scraped before and after the rounds; for the turn,
 * ivr_turn_duration_seconds), so load-generator noise can be told apart. The last line has the
 * ratios turn/floor.
 *
 * The whole of it (a fresh service, its own key prefix, warm-up and rounds) is a run, repeated
 * `--runs N` times (3; 1 with --smoke). Each run ends with a `turn-bench-run` line of its ratios;
 * the last line has each ratio per run, its median and its range, and the targets judged on the
 * medians (throughput ratio ≥ 0.6, p99 ratio ≤ 1.5): one run on a shared machine can land on
 * either side of a target whatever the code (docs/benchmarks.md).
 *
 *   npm run bench                      3 runs, 64 connections, 10 s per measure (after a warm-up)
 *   npm run bench -- --runs 5          5 runs
 *   npm run bench -- --smoke           1 run, 4 connections, 1 s, no warm-up (CI)
 *   npm run bench -- --cpu-prof        also profiles the service (node --cpu-prof) and summarises it
 *   npm run bench -- --store embedded  the service on the embedded store (SQLite, a fresh DATA_DIR per run;
 *                                      its size is printed); --store memory: the memory store (default redis)
 *   npm run bench -- --only=turn       skips the floor (e.g. with --cpu-prof, to profile the turn alone)
 *   npm run bench -- --aa              an A/A run: the floor against itself ('floor' and 'floor-again', in
 *                                      the same interleaved rounds). Its ratios would be 1 on a quiet
 *                                      machine; their range over the runs (the last line's `band`)
 *                                      is the noise of the turn's ratios.
 * Env: REDIS_URL (default redis://127.0.0.1:6379), BENCH_DURATION_S (10), BENCH_CONNECTIONS (64),
 * BENCH_WARMUP_S (3; 0 = none), BENCH_ROUNDS (5: each round runs each measure for duration/rounds),
 * BENCH_KEEP_DATA (with --store embedded: keep each run's DATA_DIR to inspect), BENCH_PROFILE_DIR (where --cpu-prof writes; default a temp dir), BENCH_ENTRY (run the service from
 * a compiled entry, e.g. dist/main.js after `npm run build`: its profile keeps source lines, which
 * tsx's one-line output does not).
 * Exit code 0 when the run completed (targets met or not), 1 when it could not run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import {
  envNumber,
  flagCount,
  flagValue,
  line,
  machine,
  note,
  randomPrefix,
  redisUrl,
  round,
  smoke,
} from './lib/bench-env.js';
import { serviceNodeFlags, startChildService, type ChildService } from './lib/child-service.js';
import { playOnce } from './lib/call-script.js';
import { mergeLoads, runLoad, type LoadOptions, type LoadResult } from './lib/load-run.js';
import { setupDemoApp } from './lib/operator-setup.js';
import { labelValues, readValue, scrape, serverTime } from './lib/prom-histogram.js';

type Scrape = string;
import { connectRedis, removePrefix } from './lib/redis-prefix.js';
import { readProfile, summarizeProfile } from './lib/cpu-profile-summary.js';
import { processName, schedDelta, threadSched, type ThreadSched } from './lib/thread-sched.js';
import { judgeOnMedian, summarizeRuns, type RunRatios } from './lib/run-medians.js';

const DURATION_S = envNumber('BENCH_DURATION_S', 10, 1);
const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 64, 4));
const WARMUP_S = envNumber('BENCH_WARMUP_S', 3, 0, true);
const ROUNDS = Math.round(envNumber('BENCH_ROUNDS', 5, 1));
const RUNS = flagCount('runs', 3, 1);
const ONLY = flagValue('only');
/** The service's store: redis (default), embedded (SQLite in a fresh DATA_DIR per run) or memory. */
const STORE =
  flagValue('store') ??
  (process.argv.includes('--store') ? process.argv[process.argv.indexOf('--store') + 1] : undefined) ??
  'redis';
if (!['redis', 'embedded', 'memory'].includes(STORE))
  throw new Error(`--store must be redis, embedded or memory, not ${STORE}`);
const AA = process.argv.includes('--aa');
const CPU_PROF = process.argv.includes('--cpu-prof');
const REDIS_URL = redisUrl();
/** The current run's key prefix (each run has its own). */
let prefix = randomPrefix('turn');
const TARGET_THROUGHPUT = 0.6;
const TARGET_P99 = 1.5;

const TURN_HISTOGRAM = 'ivr_turn_duration_seconds';
const HTTP_HISTOGRAM = 'http_request_duration_seconds';
const CPU_COUNTER = 'ivr_gateway_process_cpu_seconds_total';
/** Store calls (round trips) by operation, counted by the service in BENCH_MODE. */
const STORE_CALLS = 'ivr_store_calls_total';

interface Measured extends LoadResult {
  serverSource: string;
  serverCount: number;
  serverP50Ms: number | null;
  serverP99Ms: number | null;
  serverHttpP50Ms: number | null;
  serverHttpP99Ms: number | null;
  /** The service process's CPU time (user + system) during the measure, per response. */
  serverCpuMsPerRequest: number | null;
  /** Redis's CPU time during the measure, per response (it shares the machine's cores). */
  redisCpuMsPerRequest?: number | null;
  /** Store calls (round trips) per response, counted by the service (BENCH_MODE, ivr_store_calls_total). */
  storeCallsPerRequest?: number | null;
  loadGenCpuMsPerRequest?: number | null;
  /**
   * The service's main thread (it runs every request), per response, from the kernel's scheduler
   * (Linux): its time on a CPU, and its time ready to run while another process had the core.
   */
  serverMainThreadCpuMsPerRequest?: number | null;
  serverMainThreadWaitMsPerRequest?: number | null;
  /** Redis's main thread: time ready to run while waiting for a core, per response (a local Redis only). */
  redisWaitMsPerRequest?: number | null;
}

let service: ChildService | undefined;
let redis: Redis | undefined;

/**
 * The measures in ROUNDS interleaved rounds (floor, turn, floor, turn…), each round 1/ROUNDS of the
 * duration, merged per measure: on a shared machine the load of the neighbours drifts within
 * seconds, and interleaving spreads that drift over both measures instead of handing it to one.
 * The server's histograms are scraped once around all rounds (each measure has its own series);
 * the process CPU counter and the main thread's scheduler account (schedstat) around each round.
 */
async function measureInRounds(
  baseUrl: string,
  runs: Array<{ opts: LoadOptions; route: string }>,
  pids: { service: number; redis: number | null },
): Promise<Record<string, Measured & { byKind?: Record<string, unknown> }>> {
  type Part = {
    loads: LoadResult[];
    cpuMs: number;
    redisCpuMs: number;
    loadGenCpuMs: number;
    storeCalls: number;
    main: ThreadSched | null;
    redisMain: ThreadSched | null;
  };
  const parts = new Map<string, Part>(
    runs.map((r) => [
      r.opts.name,
      {
        loads: [],
        cpuMs: 0,
        redisCpuMs: 0,
        loadGenCpuMs: 0,
        storeCalls: 0,
        main: { cpuMs: 0, waitMs: 0 },
        redisMain: { cpuMs: 0, waitMs: 0 },
      },
    ]),
  );
  const add = (sum: ThreadSched | null, d: ThreadSched | null): ThreadSched | null =>
    sum && d ? { cpuMs: sum.cpuMs + d.cpuMs, waitMs: sum.waitMs + d.waitMs } : null;
  const first = await scrape(baseUrl);
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of runs) {
      const before = await scrape(baseUrl);
      const redisBefore = await redisCpuMs();
      const ownBefore = process.cpuUsage();
      const mainBefore = threadSched(pids.service);
      const redisMainBefore = pids.redis === null ? null : threadSched(pids.redis);
      const load = await runLoad({ ...r.opts, durationS: DURATION_S / ROUNDS });
      const main = schedDelta(mainBefore, threadSched(pids.service));
      const redisMain = pids.redis === null ? null : schedDelta(redisMainBefore, threadSched(pids.redis));
      const own = process.cpuUsage(ownBefore);
      const redisAfter = await redisCpuMs();
      const after = await scrape(baseUrl);
      const part = parts.get(r.opts.name)!;
      part.loads.push(load);
      part.cpuMs += (readValue(after, CPU_COUNTER) - readValue(before, CPU_COUNTER)) * 1000;
      part.redisCpuMs += redisAfter - redisBefore;
      part.storeCalls += sumOf(after, STORE_CALLS) - sumOf(before, STORE_CALLS);
      part.loadGenCpuMs += (own.user + own.system) / 1000;
      part.main = add(part.main, main);
      part.redisMain = add(part.redisMain, redisMain);
    }
  }
  const last = await scrape(baseUrl);
  const out: Record<string, Measured & { byKind?: Record<string, unknown> }> = {};
  for (const r of runs) {
    const part = parts.get(r.opts.name)!;
    const m = measured(r.opts, r.route, mergeLoads(part.loads), part.cpuMs, first, last);
    const perRequest = (ms: number) => (m.requests > 0 ? round(ms / m.requests, 3) : null);
    out[r.opts.name] = {
      ...m,
      redisCpuMsPerRequest: perRequest(part.redisCpuMs),
      storeCallsPerRequest: perRequest(part.storeCalls),
      loadGenCpuMsPerRequest: perRequest(part.loadGenCpuMs),
      serverMainThreadCpuMsPerRequest: part.main ? perRequest(part.main.cpuMs) : null,
      serverMainThreadWaitMsPerRequest: part.main ? perRequest(part.main.waitMs) : null,
      redisWaitMsPerRequest: part.redisMain ? perRequest(part.redisMain.waitMs) : null,
    };
  }
  return out;
}

/** The sum of every series of a counter (all its labels), 0 when it has none. */
function sumOf(exposition: string, name: string): number {
  let sum = 0;
  for (const m of exposition.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+(\\S+)`, 'gm')))
    sum += Number(m[1]);
  return sum;
}

/** The local Redis server's pid (INFO server), or null when it is not a redis-server process on this machine. */
async function localRedisPid(): Promise<number | null> {
  const pid = Number(/^process_id:(\d+)/m.exec(await redis!.info('server'))?.[1] ?? NaN);
  return Number.isInteger(pid) && processName(pid)?.startsWith('redis') ? pid : null;
}

/** Redis's own CPU time so far (INFO cpu: used_cpu_user + used_cpu_sys), in ms. */
async function redisCpuMs(): Promise<number> {
  const info = await redis!.info('cpu');
  const read = (k: string) => Number(new RegExp(`^${k}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return (read('used_cpu_user') + read('used_cpu_sys')) * 1000;
}

function measured(
  opts: LoadOptions,
  route: string,
  r: LoadResult,
  cpuMs: number,
  before: Scrape,
  after: Scrape,
): Measured & { byKind?: Record<string, unknown> } {
  const http = serverTime(after, before, HTTP_HISTOGRAM, { route, method: 'POST' });
  const serverCpuMsPerRequest =
    Number.isFinite(cpuMs) && r.requests > 0 ? round(cpuMs / r.requests, 3) : null;
  if (opts.mode === 'floor') {
    return {
      ...r,
      serverSource: `${HTTP_HISTOGRAM}{route="${route}"}`,
      serverCount: http.count,
      serverP50Ms: http.p50Ms,
      serverP99Ms: http.p99Ms,
      serverHttpP50Ms: http.p50Ms,
      serverHttpP99Ms: http.p99Ms,
      serverCpuMsPerRequest,
    };
  }
  const turn = serverTime(after, before, TURN_HISTOGRAM);
  const byKind: Record<string, unknown> = {};
  for (const kind of labelValues(after, TURN_HISTOGRAM, 'kind')) {
    const k = serverTime(after, before, TURN_HISTOGRAM, { kind });
    if (k.count) byKind[kind] = k;
  }
  return {
    ...r,
    serverSource: TURN_HISTOGRAM,
    serverCount: turn.count,
    serverP50Ms: turn.p50Ms,
    serverP99Ms: turn.p99Ms,
    serverHttpP50Ms: http.p50Ms,
    serverHttpP99Ms: http.p99Ms,
    serverCpuMsPerRequest,
    byKind,
  };
}

const ratio = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a != null && b != null && b > 0 ? round(a / b, 3) : null;

/** One run: a fresh service on its own prefix, the warm-ups, the rounds; prints its lines, returns its ratios. */
async function oneRun(run: number, profileDir: string | undefined): Promise<RunRatios> {
  prefix = randomPrefix('turn');
  const adminToken = randomBytes(24).toString('base64url');
  const dataDir = STORE === 'embedded' ? mkdtempSync(join(tmpdir(), 'ivr-bench-data-')) : undefined;
  service = await startChildService({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      STORE,
      ...(STORE === 'redis' ? { REDIS_URL } : {}),
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      KEY_PREFIX: prefix,
      MASTER_KEY: randomBytes(32).toString('base64'),
      ADMIN_TOKEN: adminToken,
      BENCH_MODE: 'true',
      LOG_LEVEL: 'warn',
    },
    nodeFlags: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  });
  const baseUrl = service.url;
  const app = await setupDemoApp(baseUrl, adminToken, 'turn bench');
  note(`run ${run}/${RUNS}: service pid ${service.pid} at ${baseUrl}, app ${app.streamId}`);
  await playOnce(baseUrl, app.webhookPath, 'turn', `sanity-${Date.now()}`);
  await playOnce(baseUrl, app.floorPath, 'floor', `sanity-${Date.now()}`);

  const runs: Array<{ opts: LoadOptions; route: string }> = [];
  const floorRun = (name: string) => ({
    opts: {
      name,
      mode: 'floor' as const,
      baseUrl,
      path: app.floorPath,
      connections: CONNECTIONS,
      durationS: DURATION_S,
    },
    route: '/bench/floor/:streamId',
  });
  if (AA) runs.push(floorRun('floor'), floorRun('floor-again'));
  else {
    if (ONLY !== 'turn') runs.push(floorRun('floor'));
    if (ONLY !== 'floor')
      runs.push({
        opts: {
          name: 'turn',
          mode: 'turn',
          baseUrl,
          path: app.webhookPath,
          connections: CONNECTIONS,
          durationS: DURATION_S,
        },
        route: '/ivr/hooks/:streamId',
      });
  }
  const loadStartedAt = performance.now();
  let requestsUnderLoad = 0;
  if (WARMUP_S > 0) {
    for (const r of runs) {
      const w = await runLoad({ ...r.opts, name: `${r.opts.name}-warmup`, durationS: WARMUP_S });
      requestsUnderLoad += w.requests;
      note(`warm-up ${r.opts.name}: ${w.requestsPerSec} req/s, p99 ${w.p99Ms} ms, invalid ${w.invalid}`);
    }
  }
  const results = await measureInRounds(baseUrl, runs, {
    service: service.pid,
    redis: await localRedisPid(),
  });
  for (const m of Object.values(results)) {
    requestsUnderLoad += m.requests;
    const { times: _times, allTimes: _allTimes, loopDelayP99s: _loopDelays, ...printed } = m;
    line({ ...printed, rounds: ROUNDS, run });
  }

  const pid = service.pid;
  const code = await service.stop();
  service = undefined;
  const loadWindowMs = performance.now() - loadStartedAt;
  note(`service stopped (exit code ${code})`);
  if (profileDir) {
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (the others are loader workers)
    const file = readdirSync(profileDir)
      .filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0' && f.split('.')[3] === String(pid))
      .pop();
    if (file) {
      const s = summarizeProfile(readProfile(join(profileDir, file)), 12, loadWindowMs);
      line({
        run,
        profile: join(profileDir, file),
        window: 'warm-ups and measures (start-up and app set-up excluded)',
        windowMs: round(loadWindowMs, 0),
        busyMs: s.busyMs,
        idleMs: s.idleMs,
        requests: requestsUnderLoad,
        busyMsPerRequest: round(s.busyMs / requestsUnderLoad, 3),
        selfByArea: s.selfByArea,
        selfByFunction: s.selfByFunction,
        inclusiveOwnCode: s.inclusiveOwnCode,
      });
    } else note(`no main-thread .cpuprofile in ${profileDir}`);
  }
  if (dataDir) {
    const files = readdirSync(dataDir).map((f) => ({ f, bytes: statSync(join(dataDir, f)).size }));
    line({
      run,
      store: STORE,
      dataDir,
      dataDirBytes: files.reduce((a, x) => a + x.bytes, 0),
      files,
      turnRequests: results.turn?.requests,
    });
    if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  }
  line({ phase: 'cleanup', run, prefix, keysRemoved: await removePrefix(redis!, prefix) });

  const problems = Object.values(results).reduce((n, m) => n + m.errors + m.non2xx + m.invalid, 0);
  if (AA) {
    const first = results.floor!;
    const again = results['floor-again']!;
    const ratios = {
      // again ÷ first, as the turn's ratios are turn ÷ floor (the second measure of each round over the first)
      throughputRatio: ratio(again.requestsPerSec, first.requestsPerSec),
      p99Ratio: ratio(again.p99Ms, first.p99Ms),
      serverMainThreadCpuRatio: ratio(
        again.serverMainThreadCpuMsPerRequest,
        first.serverMainThreadCpuMsPerRequest,
      ),
      requestProblems: problems,
    };
    line({
      summary: 'turn-bench-aa-run',
      run,
      cores: machine().cores,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      rounds: ROUNDS,
      floorRequestsPerSec: first.requestsPerSec,
      floorAgainRequestsPerSec: again.requestsPerSec,
      ...ratios,
      p50Ratio: ratio(again.p50Ms, first.p50Ms),
    });
    return ratios;
  }
  const turn = results.turn;
  const floor = results.floor;
  const throughputRatio = ratio(turn?.requestsPerSec, floor?.requestsPerSec);
  const p99Ratio = ratio(turn?.p99Ms, floor?.p99Ms);
  const serverMainThreadCpuRatio = ratio(
    turn?.serverMainThreadCpuMsPerRequest,
    floor?.serverMainThreadCpuMsPerRequest,
  );
  line({
    summary: 'turn-bench-run',
    run,
    cores: machine().cores,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    turnRequestsPerSec: turn?.requestsPerSec ?? null,
    floorRequestsPerSec: floor?.requestsPerSec ?? null,
    throughputRatio,
    p99Ratio,
    // what a turn costs, beside the ratios (issue 39): round trips, the service's main thread, Redis
    storeCallsPerTurn: turn?.storeCallsPerRequest ?? null,
    mainThreadCpuMsPerTurn: turn?.serverMainThreadCpuMsPerRequest ?? null,
    redisCpuMsPerTurn: turn?.redisCpuMsPerRequest ?? null,
    storeCallsPerFloor: floor?.storeCallsPerRequest ?? null,
    p99RatioWithRamp: ratio(turn?.p99WithRampMs, floor?.p99WithRampMs),
    p50Ratio: ratio(turn?.p50Ms, floor?.p50Ms),
    serverP99Ratio: ratio(turn?.serverHttpP99Ms, floor?.serverHttpP99Ms),
    serverCpuPerRequestRatio: ratio(turn?.serverCpuMsPerRequest, floor?.serverCpuMsPerRequest),
    // the service's main thread in the same rounds: its own cost per request, and the wait for a core
    serverMainThreadCpuRatio,
    serverMainThreadWaitMsPerRequest: {
      turn: turn?.serverMainThreadWaitMsPerRequest ?? null,
      floor: floor?.serverMainThreadWaitMsPerRequest ?? null,
    },
    redisWaitMsPerRequest: {
      turn: turn?.redisWaitMsPerRequest ?? null,
      floor: floor?.redisWaitMsPerRequest ?? null,
    },
    redisCpuMsPerRequest: {
      turn: turn?.redisCpuMsPerRequest ?? null,
      floor: floor?.redisCpuMsPerRequest ?? null,
    },
    loadGenCpuMsPerRequest: {
      turn: turn?.loadGenCpuMsPerRequest ?? null,
      floor: floor?.loadGenCpuMsPerRequest ?? null,
    },
    loadGenLoopDelayP99Ms: {
      turn: turn?.loadGenLoopDelayP99Ms ?? null,
      floor: floor?.loadGenLoopDelayP99Ms ?? null,
    },
    turnServerP50Ms: turn?.serverP50Ms ?? null,
    turnServerP99Ms: turn?.serverP99Ms ?? null,
    // this run alone against the targets; the judgement is the last line's, on the medians
    throughputOk: throughputRatio === null ? null : throughputRatio >= TARGET_THROUGHPUT,
    p99Ok: p99Ratio === null ? null : p99Ratio <= TARGET_P99,
    requestProblems: problems,
  });
  return { throughputRatio, p99Ratio, serverMainThreadCpuRatio, requestProblems: problems };
}

async function main(): Promise<void> {
  const profileDir = CPU_PROF
    ? (process.env.BENCH_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'ivr-bench-prof-')))
    : undefined;
  line({
    bench: 'turn',
    phase: 'config',
    ...machine(),
    runs: RUNS,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    rounds: ROUNDS,
    warmupS: WARMUP_S,
    smoke,
    store: STORE,
    redis: REDIS_URL,
    serviceNodeFlags: serviceNodeFlags(),
    entry: process.env.BENCH_ENTRY ?? 'src/main.ts (tsx)',
    ...(profileDir ? { profileDir } : {}),
    ...(ONLY ? { only: ONLY } : {}),
    ...(AA ? { aa: true } : {}),
  });
  redis = await connectRedis(REDIS_URL);
  const perRun: RunRatios[] = [];
  for (let run = 1; run <= RUNS; run++) perRun.push(await oneRun(run, profileDir));
  const s = summarizeRuns(perRun);
  const common = {
    cores: machine().cores,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    rounds: ROUNDS,
    runs: s.runs,
    perRun: s.perRun,
    median: s.median,
  };
  if (AA) {
    // the noise band: how far the floor measured against itself wandered over these runs
    line({ summary: 'turn-bench-aa', ...common, band: s.range, requestProblems: s.requestProblems });
    return;
  }
  const targets = { throughputRatio: TARGET_THROUGHPUT, p99Ratio: TARGET_P99 };
  const met = judgeOnMedian(s, targets);
  line({
    summary: 'turn-bench',
    ...common,
    range: s.range,
    targets: { throughputRatio: `>= ${TARGET_THROUGHPUT}`, p99Ratio: `<= ${TARGET_P99}` },
    targetsMetOnMedian: { throughputRatio: met.throughputRatio, p99Ratio: met.p99Ratio },
    runsMeetingBothTargets: perRun.filter(
      (r) =>
        r.throughputRatio !== null &&
        r.p99Ratio !== null &&
        r.throughputRatio >= TARGET_THROUGHPUT &&
        r.p99Ratio <= TARGET_P99,
    ).length,
    ok: met.both,
    requestProblems: s.requestProblems,
  });
}

async function teardown(): Promise<void> {
  if (service) await service.stop().catch(() => undefined);
  service = undefined;
  if (redis) {
    await removePrefix(redis, prefix).catch(() => undefined);
    redis.disconnect();
    redis = undefined;
  }
}

process.once('SIGINT', () => {
  note('interrupted: stopping the service and removing the keys');
  void teardown().finally(() => process.exit(130));
});

main()
  .then(async () => {
    redis?.disconnect();
    process.exit(0);
  })
  .catch(async (err: unknown) => {
    process.stderr.write(`turn bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    await teardown();
    process.exit(1);
  });
