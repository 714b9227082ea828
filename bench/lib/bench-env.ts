/**
 * Shared bits of the benchmarks: the --smoke switch, numeric env settings with a smoke default,
 * one-JSON-object-per-line output on stdout (everything else goes to stderr), random key prefixes.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

export const smoke = process.argv.includes('--smoke');

/** A number from the environment (> 0, or ≥ 0 with allowZero), else the normal or the smoke default. */
export function envNumber(name: string, normal: number, small: number, allowZero = false): number {
  const raw = process.env[name];
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero))
      throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${raw}"`);
    return n;
  }
  return smoke ? small : normal;
}

export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other run shares, e.g. `bench-turn:1a2b3c4d:`. */
export const randomPrefix = (bench: string): string => `bench-${bench}:${randomBytes(4).toString('hex')}:`;

/** Prints one JSON line on stdout: the only thing the benchmarks write there. */
export const line = (o: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(o)}\n`);
};

/** Progress and diagnostics go to stderr, so stdout stays parseable. */
export const note = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};

/** The value of `--name=value` on the command line. */
export const flagValue = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/**
 * A whole number from `--name N` or `--name=N` on the command line (at least `min`), else the
 * normal or the smoke default.
 */
export function flagCount(name: string, normal: number, small: number, min = 1): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = flagValue(name) ?? (i >= 0 ? process.argv[i + 1] : undefined);
  if (raw === undefined) return smoke ? small : normal;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number >= ${min}, got "${raw}"`);
  return n;
}

export const round = (n: number, digits = 2): number => (Number.isFinite(n) ? +n.toFixed(digits) : n);

export const machine = () => ({
  cores: availableParallelism(),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
});

/** Quantile of an ascending array (nearest rank). */
export const quantile = (sorted: number[], q: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
