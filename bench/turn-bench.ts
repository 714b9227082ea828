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
import { runLoad, type LoadOptions } from './lib/load-run.js';
import { setupDemoApp } from './lib/operator-setup.js';
import { localRedisPid, measureInRounds } from './lib/measure-in-rounds.js';
import { connectRedis, removePrefix } from './lib/redis-prefix.js';
import { readProfile, summarizeProfile } from './lib/cpu-profile-summary.js';
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

let service: ChildService | undefined;
let redis: Redis | undefined;

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
  const results = await measureInRounds(
    baseUrl,
    runs,
    { service: service.pid, redis: await localRedisPid(redis!) },
    { rounds: ROUNDS, durationS: DURATION_S, redis: redis! },
  );
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
