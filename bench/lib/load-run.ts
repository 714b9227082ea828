/**
 * One autocannon measure in this process: N connections, each a scripted caller (call-script.ts),
 * for a fixed duration. Latency percentiles come from the response times autocannon reports (float
 * ms, 2xx or not), which is finer than its integer-ms histogram.
 *
 * Percentiles are of the steady state: requests sent before every connection has had its first
 * answer (the ramp) are left out of p50/p99/mean/max. A measure opens its N connections at once,
 * and the last of them get their first answer up to ~0.8 s later on the 2-core bench machine; those
 * ~N slow first answers per round were about 1% of a measure, exactly where p99 sits, so they, not
 * the route, decided the p99 ratio (checked: 150 of 151 answers over 150 ms in a run were first
 * answers). Throughput still counts every request. `rampMs`, `rampResponses` and `p99WithRampMs`
 * are printed so the two can be compared.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { callRequests, newStats, type ScriptStats } from './call-script.js';
import { quantile, round } from './bench-env.js';

export interface LoadOptions {
  name: string;
  mode: 'turn' | 'floor';
  baseUrl: string;
  path: string;
  connections: number;
  durationS: number;
}

export interface LoadResult {
  measure: string;
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  invalid: number;
  invalidReasons: Record<string, number>;
  callsCompleted: number;
  /** How long until every connection had its first answer (the longest, over rounds). */
  rampMs: number;
  /** Answers to requests sent during the ramp: counted in throughput, not in the percentiles. */
  rampResponses: number;
  p99WithRampMs: number;
  /**
   * The load generator's own event-loop delay while it measured (ms; median of the rounds' p99 and
   * the largest delay): time a response waited in this process before it was timed, which the
   * client-side latency includes and the server's histograms do not.
   */
  loadGenLoopDelayP99Ms: number;
  loadGenLoopDelayMaxMs: number;
  /** Each round's loop-delay p99 (for merging rounds; not printed). */
  loopDelayP99s: number[];
  /** Steady-state response times in ms, sorted (for merging rounds; not printed). */
  times: number[];
  /** Every response time in ms, ramp included, sorted (not printed). */
  allTimes: number[];
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const stats: ScriptStats = newStats();
  const times: number[] = [];
  const allTimes: number[] = [];
  const answered = new Set<unknown>();
  let rampEnd = Infinity;
  const startedAt = performance.now();
  const requests = callRequests({
    mode: opts.mode,
    path: opts.path,
    runId: `${opts.name}-${Date.now().toString(36)}`,
    stats,
  });
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: opts.baseUrl,
        connections: opts.connections,
        duration: opts.durationS,
        pipelining: 1,
        timeout: 10,
        requests,
      },
      // @types/autocannon types the error as any; autocannon passes an Error or nothing
      (err: Error | null | undefined, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (client, _status, _bytes, responseTime) => {
      const now = performance.now();
      allTimes.push(responseTime);
      if (now - responseTime >= rampEnd) times.push(responseTime);
      if (rampEnd === Infinity) {
        answered.add(client);
        if (answered.size >= opts.connections) rampEnd = now;
      }
    });
  });
  loopDelay.disable();
  const loopP99 = round(loopDelay.percentile(99) / 1e6, 3);
  times.sort((a, b) => a - b);
  allTimes.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return {
    measure: opts.name,
    connections: opts.connections,
    durationS: round(result.duration, 2),
    requests: result.requests.total,
    requestsPerSec: round(result.requests.total / result.duration, 1),
    p50Ms: round(quantile(times, 0.5), 3),
    p99Ms: round(quantile(times, 0.99), 3),
    meanMs: round(times.length ? total / times.length : NaN, 3),
    maxMs: round(times[times.length - 1] ?? NaN, 3),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    invalid: stats.invalid,
    invalidReasons: stats.reasons,
    callsCompleted: stats.callsCompleted,
    rampMs: round((rampEnd === Infinity ? performance.now() : rampEnd) - startedAt, 1),
    rampResponses: allTimes.length - times.length,
    p99WithRampMs: round(quantile(allTimes, 0.99), 3),
    loadGenLoopDelayP99Ms: loopP99,
    loadGenLoopDelayMaxMs: round(loopDelay.max / 1e6, 3),
    loopDelayP99s: [loopP99],
    times,
    allTimes,
  };
}

/** Several rounds of one measure as one result: sums, and percentiles over every steady-state response. */
export function mergeLoads(parts: LoadResult[]): LoadResult {
  const times = parts.flatMap((p) => p.times).sort((a, b) => a - b);
  const allTimes = parts.flatMap((p) => p.allTimes).sort((a, b) => a - b);
  const loopDelayP99s = parts.flatMap((p) => p.loopDelayP99s);
  const sum = (f: (p: LoadResult) => number) => parts.reduce((n, p) => n + f(p), 0);
  const durationS = sum((p) => p.durationS);
  const requests = sum((p) => p.requests);
  const reasons: Record<string, number> = {};
  for (const p of parts)
    for (const [k, v] of Object.entries(p.invalidReasons)) reasons[k] = (reasons[k] ?? 0) + v;
  return {
    measure: parts[0]!.measure,
    connections: parts[0]!.connections,
    durationS: round(durationS, 2),
    requests,
    requestsPerSec: round(requests / durationS, 1),
    p50Ms: round(quantile(times, 0.5), 3),
    p99Ms: round(quantile(times, 0.99), 3),
    meanMs: round(times.length ? times.reduce((a, b) => a + b, 0) / times.length : NaN, 3),
    maxMs: round(times[times.length - 1] ?? NaN, 3),
    errors: sum((p) => p.errors),
    timeouts: sum((p) => p.timeouts),
    non2xx: sum((p) => p.non2xx),
    invalid: sum((p) => p.invalid),
    invalidReasons: reasons,
    callsCompleted: sum((p) => p.callsCompleted),
    rampMs: Math.max(...parts.map((p) => p.rampMs)),
    rampResponses: sum((p) => p.rampResponses),
    p99WithRampMs: round(quantile(allTimes, 0.99), 3),
    loadGenLoopDelayP99Ms: round(
      quantile(
        [...loopDelayP99s].sort((a, b) => a - b),
        0.5,
      ),
      3,
    ),
    loadGenLoopDelayMaxMs: Math.max(...parts.map((p) => p.loadGenLoopDelayMaxMs)),
    loopDelayP99s,
    times,
    allTimes,
  };
}
