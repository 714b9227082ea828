/**
 * The turn bench's measures of one service, in interleaved rounds: the load of each measure from
 * lib/load-run.ts, with the server's own view around each round (its Prometheus histograms and
 * counters, the process's and Redis's CPU, the main threads' scheduler account, the store calls).
 */
import type { Redis } from 'ioredis';
import { round } from './bench-env.js';
import { mergeLoads, runLoad, type LoadOptions, type LoadResult } from './load-run.js';
import { labelValues, readValue, scrape, serverTime } from './prom-histogram.js';
import { processName, schedDelta, threadSched, type ThreadSched } from './thread-sched.js';

type Scrape = string;

const TURN_HISTOGRAM = 'ivr_turn_duration_seconds';
const HTTP_HISTOGRAM = 'http_request_duration_seconds';
const CPU_COUNTER = 'ivr_gateway_process_cpu_seconds_total';
/** Store calls (round trips) by operation, counted by the service in BENCH_MODE. */
const STORE_CALLS = 'ivr_store_calls_total';

export interface Measured extends LoadResult {
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

/**
 * The measures in `rounds` interleaved rounds (floor, turn, floor, turn…), each round 1/`rounds` of the
 * duration, merged per measure: on a shared machine the load of the neighbours drifts within
 * seconds, and interleaving spreads that drift over both measures instead of handing it to one.
 * The server's histograms are scraped once around all rounds (each measure has its own series);
 * the process CPU counter and the main thread's scheduler account (schedstat) around each round.
 */
export async function measureInRounds(
  baseUrl: string,
  runs: Array<{ opts: LoadOptions; route: string }>,
  pids: { service: number; redis: number | null },
  plan: { rounds: number; durationS: number; redis: Redis },
): Promise<Record<string, Measured & { byKind?: Record<string, unknown> }>> {
  const { rounds, durationS, redis } = plan;
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
  for (let i = 0; i < rounds; i++) {
    for (const r of runs) {
      const before = await scrape(baseUrl);
      const redisBefore = await redisCpuMs(redis);
      const ownBefore = process.cpuUsage();
      const mainBefore = threadSched(pids.service);
      const redisMainBefore = pids.redis === null ? null : threadSched(pids.redis);
      const load = await runLoad({ ...r.opts, durationS: durationS / rounds });
      const main = schedDelta(mainBefore, threadSched(pids.service));
      const redisMain = pids.redis === null ? null : schedDelta(redisMainBefore, threadSched(pids.redis));
      const own = process.cpuUsage(ownBefore);
      const redisAfter = await redisCpuMs(redis);
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
export async function localRedisPid(redis: Redis): Promise<number | null> {
  const pid = Number(/^process_id:(\d+)/m.exec(await redis.info('server'))?.[1] ?? NaN);
  return Number.isInteger(pid) && processName(pid)?.startsWith('redis') ? pid : null;
}

/** Redis's own CPU time so far (INFO cpu: used_cpu_user + used_cpu_sys), in ms. */
async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
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
