/**
 * The result file of a run, in the platform's batch-test result layout: a header block, an empty
 * line, the column row, then one row per utterance (and one more per further expected entity).
 * Written with csv-stringify, so quotes, commas and newlines in utterances survive. Cells that a
 * spreadsheet would run as a formula (starting with = + - @ tab or CR) are prefixed with an
 * apostrophe.
 *
 * Beyond the platform's layout (added, nothing renamed or moved): the header block ends with the
 * out-of-scope figures (false-accept rate, in-scope accuracy, expected calibration error; see
 * run-analysis.ts), and each utterance row ends with two columns that treat None as a class:
 * "Intent Outcome" (Correct, False Accept, False Reject, Wrong Intent or Error) and "Confidence"
 * (the recognizer's score with four decimals, also when it answered None; empty on an error).
 */
import { stringify } from 'csv-stringify/sync';
import { analysisView, type RunAnalysis } from './run-analysis.js';
import type { RunCounters } from './run-counters.js';
import { NONE, isNone, type UtteranceOutcome } from './score-utterance.js';
import type { RunType, SuiteUtterance } from './testruns-schemas.js';

export const RESULT_COLUMNS = [
  'Utterance',
  'Expected Intent',
  'Matched Intent',
  'Parent Intent',
  'Task State',
  'Result Type',
  'Entity Name',
  'Expected Entity Value',
  'Matched Entity Value',
  'Entity Result',
  "Matched Intent's Score",
  "Expected Intent's Score",
  'Intent Outcome',
  'Confidence',
] as const;

export interface CsvHeadInfo {
  appName: string;
  reportName: string;
  language: string;
  runType: RunType;
  threshold: number;
  lastTested: string;
  status: string;
  utteranceCount: number;
  tested: number;
  counters: RunCounters;
  /** Absent for a run stored before the analysis existed: its file has no out-of-scope figures. */
  analysis?: RunAnalysis;
}

const safeCell = (s: string): string => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
const score = (v: number | null): string => (v === null ? '' : v.toFixed(2));
const pct = (n: number, of: number): string => `${(of > 0 ? (n * 100) / of : 0).toFixed(2)}%`;
const pctOrNa = (v: number | null): string => (v === null ? 'n/a' : `${(v * 100).toFixed(2)}%`);

/** None as a class: was the routing right, and if not, which way was it wrong. */
function intentOutcome(u: SuiteUtterance, o: UtteranceOutcome): string {
  if (o.error) return 'Error';
  const expectedNone = isNone(u.intent);
  const matchedNone = o.matchedIntent === NONE;
  if (o.tp || o.tn) return 'Correct';
  if (expectedNone) return 'False Accept';
  return matchedNone ? 'False Reject' : 'Wrong Intent';
}

function resultType(o: UtteranceOutcome): string {
  if (o.error) return 'Error';
  if (o.tp) return 'TP';
  if (o.tn) return 'TN';
  if (o.fp && o.fn) return 'FP+FN';
  return o.fp ? 'FP' : 'FN';
}

/** The rows of one utterance: intent columns on the first, one entity per row. */
function rowsFor(u: SuiteUtterance, o: UtteranceOutcome, runType: RunType): string[][] {
  const matchedAnIntent = o.matchedIntent !== '' && o.matchedIntent !== 'None';
  const taskState = matchedAnIntent ? (runType === 'published' ? 'Published' : 'Configured') : '';
  const first = [u.utterance, u.intent, o.matchedIntent, '', taskState, resultType(o)];
  const scores = [
    score(o.matchedScore),
    score(o.expectedScore),
    intentOutcome(u, o),
    o.confidence === null ? '' : o.confidence.toFixed(4),
  ];
  const entityCells = (i: number): string[] => {
    const e = o.entities[i];
    return e ? [e.name, e.expected, e.matched, e.ok ? 'Matched' : 'Not Matched'] : ['', '', '', ''];
  };
  const rows = [[...first, ...entityCells(0), ...scores]];
  for (let i = 1; i < o.entities.length; i++)
    rows.push([u.utterance, u.intent, '', '', '', '', ...entityCells(i), '', '', '', '']);
  return rows.map((r) => r.map(safeCell));
}

/** The header block, an empty line and the column row. */
function head(info: CsvHeadInfo): string {
  const c = info.counters;
  const rows: string[][] = [
    ['App Name', info.appName],
    ['Report Name', info.reportName],
    ['Language', info.language],
    ['Run Type', info.runType],
    ['Thresholds', `Intent confidence threshold ${info.threshold.toFixed(2)}`],
    ['Last Tested', info.lastTested],
    ['Status', info.status],
    ['Utterance Count', String(info.utteranceCount)],
    ['Utterances Tested', String(info.tested)],
    ['Success/Failure Ratio', `${pct(c.success, info.tested)} / ${pct(c.failure, info.tested)}`],
    ['True Positive (TP)', pct(c.TP, info.tested)],
    ['True Negative (TN)', pct(c.TN, info.tested)],
    ['False Positive (FP)', pct(c.FP, info.tested)],
    ['False Negative (FN)', pct(c.FN, info.tested)],
  ];
  if (info.analysis) {
    const a = analysisView(info.analysis);
    const ece = a.calibration?.ece ?? null;
    rows.push(
      [
        'False Accept Rate',
        `${pctOrNa(a.falseAcceptRate)} (${info.analysis.falseAccepts} of ${info.analysis.outOfScope} expected None)`,
      ],
      [
        'In-Scope Accuracy',
        `${pctOrNa(a.inScopeAccuracy)} (${info.analysis.inScopeCorrect} of ${info.analysis.inScope} expected an intent)`,
      ],
      ['Expected Calibration Error', ece === null ? 'n/a' : ece.toFixed(4)],
    );
  }
  return stringify(rows.map((r) => r.map(safeCell))) + '\n' + stringify([[...RESULT_COLUMNS]]);
}

/** CSV text of some utterance rows (no header): runs write these chunk by chunk. */
const body = (rows: string[][]): string => (rows.length ? stringify(rows) : '');

export const resultCsv = { rowsFor, head, body };
