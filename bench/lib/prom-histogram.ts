/**
 * Server-side latency from the service's own Prometheus histograms: scrape /metrics before and
 * after a run, subtract the cumulative buckets, and estimate quantiles by linear interpolation
 * inside the bucket (as PromQL's histogram_quantile does). The estimate is only as fine as the
 * buckets (…, 5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 100 ms, …; before 15da3f7 only 10, 25, 50 and
 * 100 ms, too coarse for a p99 between 25 and 100 ms).
 */

/** Cumulative counts by upper bound (seconds; +Inf included), summed over the matching series. */
export type Buckets = Map<number, number>;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}\s+(\S+)/;

function labelsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** The `<name>_bucket` series whose labels match `where`, summed per `le`. */
export function readBuckets(exposition: string, name: string, where: Record<string, string> = {}): Buckets {
  const buckets: Buckets = new Map();
  for (const raw of exposition.split('\n')) {
    const m = SAMPLE.exec(raw);
    if (!m || m[1] !== `${name}_bucket`) continue;
    const labels = labelsOf(m[2]!);
    if (Object.entries(where).some(([k, v]) => labels[k] !== v)) continue;
    const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[3]));
  }
  return buckets;
}

/** Per-kind label values present on a histogram (e.g. the `kind` of ivr_turn_duration_seconds). */
export function labelValues(exposition: string, name: string, label: string): string[] {
  const seen = new Set<string>();
  for (const raw of exposition.split('\n')) {
    const m = SAMPLE.exec(raw);
    if (m && m[1] === `${name}_bucket`) {
      const v = labelsOf(m[2]!)[label];
      if (v !== undefined) seen.add(v);
    }
  }
  return [...seen];
}

export function diffBuckets(after: Buckets, before: Buckets): Buckets {
  const out: Buckets = new Map();
  for (const [le, n] of after) out.set(le, n - (before.get(le) ?? 0));
  return out;
}

export const countOf = (b: Buckets): number => b.get(Infinity) ?? 0;

/** Quantile q (0..1) in seconds, NaN when empty; the last finite bound when it lands in +Inf. */
export function quantileOf(b: Buckets, q: number): number {
  const bounds = [...b.keys()].sort((x, y) => x - y);
  const total = countOf(b);
  if (!total) return NaN;
  const rank = q * total;
  let prevBound = 0;
  let prevCount = 0;
  for (const le of bounds) {
    const count = b.get(le)!;
    if (count >= rank) {
      if (le === Infinity) return prevBound;
      if (count === prevCount) return le;
      return prevBound + ((le - prevBound) * (rank - prevCount)) / (count - prevCount);
    }
    prevBound = le;
    prevCount = count;
  }
  return prevBound;
}

/** p50 and p99 in ms with the sample count, from the difference of two scrapes. */
export function serverTime(after: string, before: string, name: string, where: Record<string, string> = {}) {
  const d = diffBuckets(readBuckets(after, name, where), readBuckets(before, name, where));
  const ms = (s: number) => (Number.isFinite(s) ? +(s * 1000).toFixed(3) : null);
  return { count: countOf(d), p50Ms: ms(quantileOf(d, 0.5)), p99Ms: ms(quantileOf(d, 0.99)) };
}

export async function scrape(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics: HTTP ${res.status}`);
  return res.text();
}

/** The value of an unlabelled sample (e.g. ivr_gateway_process_cpu_seconds_total), NaN when absent. */
export function readValue(exposition: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{\\})?\\s+(\\S+)`, 'm').exec(exposition);
  return m ? Number(m[1]) : NaN;
}
