/**
 * Several runs of the turn bench judged as one: each ratio's values over the runs, their median
 * and their range. On a shared machine one run's ratio can land either side of a target whatever
 * the code; the median of a few runs is steadier, and the A/A run's range over the same number of
 * runs (the floor against itself) shows how far a single run wanders.
 */

/** The ratios every run reports, in both modes (turn/floor, or floor-again/floor for --aa). */
export const RATIO_KEYS = ['throughputRatio', 'p99Ratio', 'serverMainThreadCpuRatio'] as const;
export type RatioKey = (typeof RATIO_KEYS)[number];
export type RunRatios = Record<RatioKey, number | null> & { requestProblems: number };

/** The median of the numbers among `values` (the mean of the middle two for an even count); null when there are none. */
export function median(values: Array<number | null>): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  const m = xs.length % 2 === 1 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  return +m.toFixed(3);
}

/** [min, max] of the numbers among `values`; null when there are none. */
export function range(values: Array<number | null>): [number, number] | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return xs.length ? [Math.min(...xs), Math.max(...xs)] : null;
}

export interface RunsSummary {
  runs: number;
  perRun: Record<RatioKey, Array<number | null>>;
  median: Record<RatioKey, number | null>;
  range: Record<RatioKey, [number, number] | null>;
  requestProblems: number;
}

/** Each ratio over the runs: the per-run values (in run order), the median and the range. */
export function summarizeRuns(runs: RunRatios[]): RunsSummary {
  const perRun = {} as RunsSummary['perRun'];
  const med = {} as RunsSummary['median'];
  const rng = {} as RunsSummary['range'];
  for (const key of RATIO_KEYS) {
    perRun[key] = runs.map((r) => r[key]);
    med[key] = median(perRun[key]);
    rng[key] = range(perRun[key]);
  }
  return {
    runs: runs.length,
    perRun,
    median: med,
    range: rng,
    requestProblems: runs.reduce((n, r) => n + r.requestProblems, 0),
  };
}

export interface Targets {
  throughputRatio: number;
  p99Ratio: number;
}

/** The turn's targets judged on the medians: throughput ratio at least its target, p99 ratio at most its. */
export function judgeOnMedian(s: RunsSummary, t: Targets) {
  const throughputRatio =
    s.median.throughputRatio === null ? null : s.median.throughputRatio >= t.throughputRatio;
  const p99Ratio = s.median.p99Ratio === null ? null : s.median.p99Ratio <= t.p99Ratio;
  return { throughputRatio, p99Ratio, both: throughputRatio === true && p99Ratio === true };
}
