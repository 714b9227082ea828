/**
 * A run's result file (the platform's batch-test CSV: a header block, an empty line, the column
 * row, one row per utterance and one more per further entity) read into per-utterance results,
 * precision, recall and F1 per intent, and the confusion matrix of expected against matched intent.
 * Newer files end each row with "Intent Outcome" (None as a class: Correct, False Accept, False
 * Reject, Wrong Intent, Error) and "Confidence" (the recognizer's score, also for a rejection); the
 * score shown is then that confidence. Older files have neither: outcome is '' and the score is the
 * matched intent's.
 */
import Papa from 'papaparse';

export interface UtteranceResult {
  utterance: string;
  expected: string;
  matched: string;
  resultType: string;
  score: string;
  outcome: string;
}

export interface IntentScore {
  intent: string;
  support: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface RunResults {
  rows: UtteranceResult[];
  intents: IntentScore[];
  /** Labels in order; `matrix[i][j]` counts utterances expected `labels[i]` and matched `labels[j]`. */
  labels: string[];
  matrix: number[][];
}

/** Cells that would run as a formula were written with a leading apostrophe. */
const cell = (s: string | undefined): string => (s && /^'[=+\-@\t\r]/.test(s) ? s.slice(1) : (s ?? ''));
const intentOf = (s: string): string => s.trim() || 'None';

export function readRunResults(csv: string): RunResults {
  const table = Papa.parse<string[]>(csv, { skipEmptyLines: false }).data;
  const head = table.findIndex((r) => r[0] === 'Utterance' && r[1] === 'Expected Intent');
  if (head < 0) return { rows: [], intents: [], labels: [], matrix: [] };
  const cols = table[head]!;
  const at = (name: string) => cols.indexOf(name);
  const [u, e, m, t, s, o, c] = [
    at('Utterance'),
    at('Expected Intent'),
    at('Matched Intent'),
    at('Result Type'),
    at("Matched Intent's Score"),
    at('Intent Outcome'),
    at('Confidence'),
  ];
  const scoreOf = (r: string[]): string => {
    const confidence = c >= 0 ? Number.parseFloat(r[c] ?? '') : Number.NaN;
    return Number.isFinite(confidence) ? confidence.toFixed(2) : (r[s] ?? '');
  };
  const rows: UtteranceResult[] = [];
  for (const r of table.slice(head + 1)) {
    if (!r[t] || r.length < cols.length) continue; // further entities of the utterance above, or the last empty line
    rows.push({
      utterance: cell(r[u]),
      expected: intentOf(cell(r[e])),
      matched: intentOf(cell(r[m])),
      resultType: r[t] ?? '',
      score: scoreOf(r),
      outcome: o >= 0 ? (r[o] ?? '') : '',
    });
  }
  const labels = [...new Set(rows.flatMap((r) => [r.expected, r.matched]))].sort((a, b) =>
    a === 'None' ? 1 : b === 'None' ? -1 : a.localeCompare(b),
  );
  const index = new Map(labels.map((l, i) => [l, i]));
  const matrix = labels.map(() => labels.map(() => 0));
  for (const r of rows) matrix[index.get(r.expected)!]![index.get(r.matched)!]! += 1;
  const intents = labels
    .filter((l) => l !== 'None')
    .map((intent): IntentScore => {
      const tp = rows.filter((r) => r.expected === intent && r.matched === intent).length;
      const fp = rows.filter((r) => r.expected !== intent && r.matched === intent).length;
      const fn = rows.filter((r) => r.expected === intent && r.matched !== intent).length;
      const precision = tp + fp ? tp / (tp + fp) : 0;
      const recall = tp + fn ? tp / (tp + fn) : 0;
      const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
      return { intent, support: tp + fn, precision, recall, f1 };
    });
  return { rows, intents, labels, matrix };
}
