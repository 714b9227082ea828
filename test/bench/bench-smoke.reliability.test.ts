/**
 * The benchmarks still run: each one with --smoke (tiny sizes) as a child process, as CI would.
 * Checks the exit code and that the JSON lines a reader relies on are there and parse. Never
 * asserts on time: the figures of a smoke run on a shared machine mean nothing.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TIMEOUT_MS = 120_000;

type Line = Record<string, any>;

interface BenchRun {
  code: number;
  lines: Line[];
  stdout: string;
  stderr: string;
}

/** Only what a bench needs: none of the user's own variables (BENCH_*, a REDIS_URL of another project…). */
const benchEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  TMPDIR: process.env.TMPDIR ?? '/tmp',
  REDIS_URL: inject('redisUrl'),
});

/** Runs `node --import tsx bench/<file> --smoke [flags]`; every stdout line must be a JSON object. */
function runBench(file: string, flags: string[] = []): Promise<BenchRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `bench/${file}`, '--smoke', ...flags],
      { cwd: root, env: benchEnv(), timeout: TIMEOUT_MS - 10_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        const lines = stdout
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Line);
        resolve({ code, lines, stdout, stderr });
      },
    );
  });
}

const explain = (r: BenchRun) =>
  `exit ${r.code}\nstdout:\n${r.stdout.slice(-3000)}\nstderr:\n${r.stderr.slice(-3000)}`;

describe.skipIf(!inject('redisAvailable'))('benchmarks in smoke mode (Redis)', () => {
  it(
    'when the turn bench runs with --smoke --runs 2, then each run has a floor line, a turn line with the server time and a run line, and the last line judges both ratios on the medians',
    async () => {
      const r = await runBench('turn-bench.ts', ['--runs', '2']);
      expect(r.code, explain(r)).toBe(0);
      const config = r.lines.find((l) => l.phase === 'config');
      expect(config?.cores).toBeGreaterThan(0);
      // each run has its own service and prefix, and its own measure lines
      expect(
        r.lines.filter((l) => l.measure !== undefined).map((l) => `${l.measure}@${l.run}`),
        explain(r),
      ).toEqual(['floor@1', 'turn@1', 'floor@2', 'turn@2']);
      for (const m of r.lines.filter((l) => l.measure !== undefined)) {
        expect(m, explain(r)).toBeDefined();
        for (const key of [
          'requestsPerSec',
          'p50Ms',
          'p99Ms',
          'p99WithRampMs',
          'rampMs',
          'rampResponses',
          'errors',
          'non2xx',
          'invalid',
          'serverP50Ms',
          'serverP99Ms',
        ])
          expect(m).toHaveProperty(key);
        // the load generator's own event-loop delay, so its share of the client-side latency can be told apart
        expect(m.loadGenLoopDelayP99Ms).toBeGreaterThan(0);
        expect(m.loadGenLoopDelayMaxMs).toBeGreaterThanOrEqual(m.loadGenLoopDelayP99Ms as number);
        expect(m).not.toHaveProperty('loopDelayP99s');
        // the service's main thread from the kernel's scheduler (Linux, where the benchmarks run)
        if (process.platform === 'linux') {
          const cpu = m.serverMainThreadCpuMsPerRequest as number;
          const wait = m.serverMainThreadWaitMsPerRequest as number;
          expect(cpu).toBeGreaterThan(0);
          expect(wait).toBeGreaterThanOrEqual(0);
          // one thread is on the CPU or waiting for it at most all the time: per request, at most the
          // wall time between two answers (half again for the edges of the sampled window)
          expect(cpu + wait, explain(r)).toBeLessThanOrEqual((1.5 * 1000) / (m.requestsPerSec as number));
        }
        expect({ errors: m.errors, non2xx: m.non2xx, invalid: m.invalid, reasons: m.invalidReasons }).toEqual(
          { errors: 0, non2xx: 0, invalid: 0, reasons: {} },
        );
      }
      for (const turn of r.lines.filter((l) => l.measure === 'turn'))
        expect(turn.serverSource).toBe('ivr_turn_duration_seconds');
      const cleanups = r.lines.filter((l) => l.phase === 'cleanup');
      expect(cleanups.map((l) => l.run)).toEqual([1, 2]);
      for (const cleanup of cleanups) expect(cleanup.keysRemoved).toBeGreaterThan(0);
      expect(new Set(cleanups.map((l) => l.prefix)).size).toBe(2);
      expect(config?.runs).toBe(2);
      const runs = r.lines.filter((l) => l.summary === 'turn-bench-run');
      expect(
        runs.map((l) => l.run),
        explain(r),
      ).toEqual([1, 2]);
      for (const run of runs) {
        for (const key of [
          'throughputRatio',
          'p99Ratio',
          'p99RatioWithRamp',
          'throughputOk',
          'p99Ok',
          'cores',
          'serverMainThreadCpuRatio',
          'serverMainThreadWaitMsPerRequest',
          'storeCallsPerTurn',
          'mainThreadCpuMsPerTurn',
          'redisCpuMsPerTurn',
        ])
          expect(run).toHaveProperty(key);
        expect(run.requestProblems).toBe(0);
      }
      const summary = r.lines[r.lines.length - 1]!;
      expect(summary.summary).toBe('turn-bench');
      expect(summary.runs).toBe(2);
      for (const key of ['throughputRatio', 'p99Ratio', 'serverMainThreadCpuRatio'] as const) {
        const values = runs.map((l) => l[key] as number);
        expect(summary.perRun[key]).toEqual(values);
        expect(summary.median[key]).toBeCloseTo((values[0]! + values[1]!) / 2, 2);
        expect(summary.range[key]).toEqual([Math.min(...values), Math.max(...values)]);
      }
      expect(summary.targets).toEqual({ throughputRatio: '>= 0.6', p99Ratio: '<= 1.5' });
      expect(summary.targetsMetOnMedian).toEqual({
        throughputRatio: summary.median.throughputRatio >= 0.6,
        p99Ratio: summary.median.p99Ratio <= 1.5,
      });
      expect(summary.ok).toBe(
        summary.targetsMetOnMedian.throughputRatio && summary.targetsMetOnMedian.p99Ratio,
      );
      expect(summary.runsMeetingBothTargets).toBe(runs.filter((l) => l.throughputOk && l.p99Ok).length);
      expect(summary.requestProblems).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    'when the turn bench runs with --aa, then it measures the floor twice and its last line has the ratios of the floor against itself',
    async () => {
      const r = await runBench('turn-bench.ts', ['--aa']);
      expect(r.code, explain(r)).toBe(0);
      expect(r.lines.filter((l) => l.measure !== undefined).map((l) => l.measure)).toEqual([
        'floor',
        'floor-again',
      ]);
      const run = r.lines.find((l) => l.summary === 'turn-bench-aa-run');
      for (const key of [
        'throughputRatio',
        'p99Ratio',
        'p50Ratio',
        'floorRequestsPerSec',
        'floorAgainRequestsPerSec',
      ])
        expect(run?.[key], explain(r)).toBeGreaterThan(0);
      const summary = r.lines[r.lines.length - 1]!;
      expect(summary.summary).toBe('turn-bench-aa');
      // the band is the range of the A/A ratios over the runs: one run, one value
      expect(summary.band.throughputRatio).toEqual([run!.throughputRatio, run!.throughputRatio]);
      expect(summary.median.p99Ratio).toBe(run!.p99Ratio);
      expect(summary.requestProblems).toBe(0);
      expect(summary).not.toHaveProperty('targets');
      expect(summary).not.toHaveProperty('targetsMetOnMedian');
    },
    TIMEOUT_MS,
  );

  it(
    'when the memory bench runs with --smoke, then it exits 0 and reports the Redis bytes and the heap per live call',
    async () => {
      const r = await runBench('memory-bench.ts');
      expect(r.code, explain(r)).toBe(0);
      const perCall = r.lines.find((l) => l.measure === 'redis-per-call');
      expect(perCall, explain(r)).toBeDefined();
      expect(perCall!.missingSessions).toBe(0);
      expect(perCall!.callKeysByKind.session).toBeGreaterThanOrEqual(50);
      expect(perCall!.mean).toBeGreaterThan(0);
      expect(typeof r.lines.find((l) => l.measure === 'heap-per-call')?.perCall).toBe('number');
      const summary = r.lines[r.lines.length - 1]!;
      expect(summary.summary).toBe('memory-bench');
      expect(summary.calls).toBe(50);
      expect(Object.keys(summary.redisBytesPerCall).sort()).toEqual(['max', 'mean', 'p50']);
      expect(typeof summary.ok).toBe('boolean');
    },
    TIMEOUT_MS,
  );

  it(
    'when the history bench runs with --smoke, then it exits 0 with its measure lines and a summary',
    async () => {
      const r = await runBench('history-bench.ts');
      expect(r.code, explain(r)).toBe(0);
      expect(r.lines.filter((l) => typeof l.measure === 'string').length, explain(r)).toBeGreaterThan(0);
      const summary = r.lines.find((l) => l.summary === 'history-bench');
      expect(summary, explain(r)).toBeDefined();
      // Its owner evolves the other fields (e.g. `ok` is left out at smoke sizes): only the ratio is relied on.
      expect(typeof summary!.worstP99Ratio).toBe('number');
    },
    TIMEOUT_MS,
  );
});
