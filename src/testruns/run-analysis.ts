/**
 * What a run says about rejection and confidence, with `None` (the fallback) as a class of its own.
 * Tallied utterance by utterance, persisted with the counters at every checkpoint (so a run cut off
 * part way still reports what it scored), and turned into the result's figures at the end.
 *
 * Definitions (E = expected intent, M = matched intent; an utterance the recognizer failed on is not
 * scored and counts in none of these):
 *   out of scope: E is None. A false accept: E is None and M is an intent.
 *   falseAcceptRate = false accepts / out-of-scope utterances; null when there are none.
 *   in scope: E is an intent. A false reject: E is an intent and M is None.
 *   inScopeAccuracy = in-scope utterances with M = E / in-scope utterances (a rejected in-scope
 *   utterance is an error); null when there are none.
 *   confusion matrix: expected (rows) against matched (columns), None always included (last).
 *   calibration: the expected calibration error over every scored utterance in 10 equal-width bins
 *   of confidence ([0, 0.1), …, [0.9, 1.0]), as the recognizer's evaluation has it (bench/eval-nlu.ts,
 *   docs/nlu.md): confidence = the recognizer's `score` (clamped to [0, 1]), the probability that the
 *   best-scoring intent B (its `scores[0]`, whatever the threshold decided) is the right one; correct
 *   = (B = E); when E is None no intent is right, so correct is false. A correct rejection at a low
 *   score is thus a low confidence that was rightly low, not a right answer at that confidence.
 *   ECE = Σ_b (n_b / N) · |accuracy_b − meanConfidence_b|; null when nothing was scored.
 *   A tally stored before this definition (no `bestIntentCalibration`) has bins of another meaning
 *   (correct = (M = E, None included)): its view has no calibration, its other figures are kept.
 */
import { NONE, isNone, sameIntent, type UtteranceOutcome } from './score-utterance.js';

export const CALIBRATION_BINS = 10;
/** The confusion matrix keeps this many intents; the rarest of any further ones are shown together as OTHER. */
export const MATRIX_INTENTS = 60;
/** Stored cells are bounded too (a suite may name thousands of intents): past this, new pairs count under OTHER. */
const MAX_CELLS = 2_000;
export const OTHER = '(other intents)';

export interface RunAnalysis {
  /** Cells of the confusion matrix, keyed by the JSON of [expected, matched]. */
  cells: Record<string, number>;
  /** Per calibration bin: utterances, sum of their confidences, how many had the best-scoring intent right. */
  bins: Array<{ n: number; conf: number; right: number }>;
  /** The bins count right as the header says; false for a tally stored under the older definition. */
  bestIntentCalibration: boolean;
  outOfScope: number;
  falseAccepts: number;
  inScope: number;
  inScopeCorrect: number;
  falseRejects: number;
}

export interface CalibrationBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number | null;
  accuracy: number | null;
}

export interface AnalysisView {
  /** Counters added to `results`. */
  counters: {
    outOfScopeCount: number;
    falseAcceptCount: number;
    inScopeCount: number;
    inScopeCorrectCount: number;
    falseRejectCount: number;
  };
  falseAcceptRate: number | null;
  inScopeAccuracy: number | null;
  confusionMatrix: { labels: string[]; matrix: number[][] };
  /** Absent when the stored bins are of the older definition (bestIntentCalibration false). */
  calibration?: { ece: number | null; bins: CalibrationBin[] };
}

export const emptyAnalysis = (): RunAnalysis => ({
  cells: {},
  bins: Array.from({ length: CALIBRATION_BINS }, () => ({ n: 0, conf: 0, right: 0 })),
  bestIntentCalibration: true,
  outOfScope: 0,
  falseAccepts: 0,
  inScope: 0,
  inScopeCorrect: 0,
  falseRejects: 0,
});

/** Reads a stored analysis; undefined when the run has none (it ran before the analysis existed). */
export function parseAnalysis(json: string | undefined): RunAnalysis | undefined {
  if (!json) return undefined;
  const raw = JSON.parse(json) as Partial<RunAnalysis>;
  const a = emptyAnalysis();
  if (raw.cells && typeof raw.cells === 'object')
    for (const [k, v] of Object.entries(raw.cells)) if (typeof v === 'number') a.cells[k] = v;
  raw.bins
    ?.slice(0, CALIBRATION_BINS)
    .forEach(
      (b, i) => (a.bins[i] = { n: Number(b.n) || 0, conf: Number(b.conf) || 0, right: Number(b.right) || 0 }),
    );
  for (const k of ['outOfScope', 'falseAccepts', 'inScope', 'inScopeCorrect', 'falseRejects'] as const)
    if (typeof raw[k] === 'number') a[k] = raw[k];
  a.bestIntentCalibration = raw.bestIntentCalibration === true;
  return a;
}

/** The bin of a confidence: [i/10, (i+1)/10), the last one closed. */
export const binOf = (confidence: number): number =>
  Math.min(CALIBRATION_BINS - 1, Math.floor(confidence * CALIBRATION_BINS));
const clamp01 = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

export function addToAnalysis(a: RunAnalysis, expectedIntent: string, o: UtteranceOutcome): void {
  if (o.error || o.confidence === null) return;
  const expectedNone = isNone(expectedIntent);
  const matchedNone = o.matchedIntent === NONE;
  const correct = expectedNone ? matchedNone : !matchedNone && sameIntent(expectedIntent, o.matchedIntent);
  // calibration: is the best-scoring intent (the one `score` is about) the expected one? Never when None was expected.
  const bestRight = !expectedNone && o.bestIntent !== '' && sameIntent(expectedIntent, o.bestIntent);
  let key = JSON.stringify([expectedNone ? NONE : expectedIntent.trim(), o.matchedIntent]);
  if (a.cells[key] === undefined && Object.keys(a.cells).length >= MAX_CELLS)
    key = JSON.stringify([expectedNone ? NONE : OTHER, matchedNone ? NONE : OTHER]);
  a.cells[key] = (a.cells[key] ?? 0) + 1;
  if (expectedNone) {
    a.outOfScope++;
    if (!matchedNone) a.falseAccepts++;
  } else {
    a.inScope++;
    if (correct) a.inScopeCorrect++;
    if (matchedNone) a.falseRejects++;
  }
  const confidence = clamp01(o.confidence);
  const bin = a.bins[binOf(confidence)]!;
  bin.n++;
  bin.conf += confidence;
  if (bestRight) bin.right++;
}

const rate = (n: number, of: number): number | null => (of > 0 ? n / of : null);

export function analysisView(a: RunAnalysis): AnalysisView {
  const pairs = Object.entries(a.cells).map(([k, n]) => {
    const [expected, matched] = JSON.parse(k) as [string, string];
    return { expected, matched, n };
  });
  // intent names compare case-insensitively: one label per intent, the recognizer's spelling first
  const spelling = new Map<string, string>([[NONE.toLowerCase(), NONE]]);
  for (const p of pairs)
    if (!spelling.has(p.matched.toLowerCase())) spelling.set(p.matched.toLowerCase(), p.matched);
  for (const p of pairs)
    if (!spelling.has(p.expected.toLowerCase())) spelling.set(p.expected.toLowerCase(), p.expected);
  const canonical = (s: string): string => spelling.get(s.toLowerCase())!;
  const total = new Map<string, number>();
  for (const p of pairs)
    for (const l of [canonical(p.expected), canonical(p.matched)]) total.set(l, (total.get(l) ?? 0) + p.n);
  const byUse = [...new Set(spelling.values())]
    .filter((l) => l !== NONE && l !== OTHER)
    .sort((x, y) => (total.get(y) ?? 0) - (total.get(x) ?? 0) || x.localeCompare(y));
  const fold = byUse.length > MATRIX_INTENTS || spelling.has(OTHER.toLowerCase());
  const kept = new Set(fold ? byUse.slice(0, MATRIX_INTENTS - 1) : byUse);
  const labelOf = (s: string): string => {
    const l = canonical(s);
    return l === NONE || kept.has(l) ? l : OTHER;
  };
  const intents = [...[...kept].sort((x, y) => x.localeCompare(y)), ...(fold ? [OTHER] : [])];
  const labels = [...intents, NONE];
  const index = new Map(labels.map((l, i) => [l, i]));
  const matrix = labels.map(() => labels.map(() => 0));
  for (const p of pairs) matrix[index.get(labelOf(p.expected))!]![index.get(labelOf(p.matched))!]! += p.n;
  const scored = a.bins.reduce((s, b) => s + b.n, 0);
  const bins = a.bins.map((b, i) => ({
    from: i / CALIBRATION_BINS,
    to: (i + 1) / CALIBRATION_BINS,
    count: b.n,
    meanConfidence: b.n ? b.conf / b.n : null,
    accuracy: b.n ? b.right / b.n : null,
  }));
  const ece = scored
    ? a.bins.reduce((s, b) => (b.n ? s + (b.n / scored) * Math.abs(b.right / b.n - b.conf / b.n) : s), 0)
    : null;
  return {
    counters: {
      outOfScopeCount: a.outOfScope,
      falseAcceptCount: a.falseAccepts,
      inScopeCount: a.inScope,
      inScopeCorrectCount: a.inScopeCorrect,
      falseRejectCount: a.falseRejects,
    },
    falseAcceptRate: rate(a.falseAccepts, a.outOfScope),
    inScopeAccuracy: rate(a.inScopeCorrect, a.inScope),
    confusionMatrix: { labels, matrix },
    ...(a.bestIntentCalibration ? { calibration: { ece, bins } } : {}),
  };
}
