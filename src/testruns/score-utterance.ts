/**
 * Runs one suite utterance through the recognizer and classifies the outcome. Never throws: a
 * recognizer error (or timeout) becomes an `error` outcome.
 *
 * Intent classes, as the platform's batch tests count them; E = expected intent, M = matched intent:
 *   TP: E is an intent and M = E.
 *   TN: E is None and M is None.
 *   FP: M is an intent and M != E        (a wrong intent, or an intent where None was expected).
 *   FN: E is an intent and M != E        (a wrong intent, or None where an intent was expected).
 * So a wrong intent is both FP and FN; None expected with an intent matched is FP only; an intent
 * expected with None matched is FN only. Intent names compare case-insensitively; `None` (any case)
 * means no intent.
 */
import type { TestRecognizer } from './recognizer-port.js';
import type { SuiteUtterance } from './testruns-schemas.js';

export const NONE = 'None';
export const isNone = (intent: string): boolean =>
  intent.trim() === '' || intent.trim().toLowerCase() === 'none';
export const sameIntent = (a: string, b: string): boolean =>
  a.trim().toLowerCase() === b.trim().toLowerCase();

export interface EntityOutcome {
  name: string;
  expected: string;
  matched: string;
  ok: boolean;
}

export interface UtteranceOutcome {
  /** The matched intent ('None' when nothing matched; '' when the recognizer failed). */
  matchedIntent: string;
  matchedScore: number | null;
  expectedScore: number | null;
  /** The recognizer's `score` for the utterance, also when it answered None; null when it failed. */
  confidence: number | null;
  /**
   * The best-scoring intent (the recognizer's `scores[0]`), whatever the threshold decided: the
   * intent `score` is the confidence of. '' when the recognizer gave no scores or failed.
   */
  bestIntent: string;
  tp: boolean;
  tn: boolean;
  fp: boolean;
  fn: boolean;
  /** The recognizer failed on this utterance: it counts as a failure and in no intent class. */
  error: boolean;
  entities: EntityOutcome[];
  /** Intent outcome right (TP or TN) and every expected entity matched. */
  success: boolean;
}

/** A value as text: objects and arrays as JSON, anything else as ECMAScript's String() has it. */
function plainText(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return '';
    case 'object':
      return v === null ? '' : JSON.stringify(v);
    default:
      return String(v);
  }
}

/** Entity values compare as trimmed, case-folded text; `{value}` objects by their value. */
export function entityText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && !Array.isArray(v) && 'value' in v) return entityText(v.value);
  return plainText(v).trim().replace(/\s+/g, ' ');
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`recognizer timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
};

export async function scoreUtterance(
  recognizer: TestRecognizer,
  u: SuiteUtterance,
  timeoutMs: number,
): Promise<UtteranceOutcome> {
  const expectedEntities = u.entities ?? [];
  try {
    const r = await withTimeout(recognizer.recognize(u.utterance), timeoutMs);
    const found =
      expectedEntities.length && recognizer.extractEntities
        ? await withTimeout(
            recognizer.extractEntities(
              u.utterance,
              expectedEntities.map((e) => ({ name: e.name })),
            ),
            timeoutMs,
          )
        : {};
    const matchedIntent = isNone(r.intent) ? NONE : r.intent;
    const expectedNone = isNone(u.intent);
    const matchedNone = matchedIntent === NONE;
    const right = !expectedNone && !matchedNone && sameIntent(u.intent, matchedIntent);
    const tp = right;
    const tn = expectedNone && matchedNone;
    const fp = !matchedNone && !right;
    const fn = !expectedNone && !right;
    const entities = expectedEntities.map((e) => {
      const expected = entityText(e.value);
      const matched = entityText(found[e.name]);
      return {
        name: e.name,
        expected,
        matched,
        ok: matched !== '' && matched.toLowerCase() === expected.toLowerCase(),
      };
    });
    const expectedScore = expectedNone
      ? null
      : (r.scores.find((s) => sameIntent(s.intent, u.intent))?.score ?? 0);
    const top = r.scores[0]?.intent ?? (matchedNone ? '' : matchedIntent);
    return {
      matchedIntent,
      matchedScore: matchedNone ? null : r.score,
      expectedScore,
      confidence: Number.isFinite(r.score) ? r.score : 0,
      bestIntent: isNone(top) ? '' : top,
      tp,
      tn,
      fp,
      fn,
      error: false,
      entities,
      success: (tp || tn) && entities.every((e) => e.ok),
    };
  } catch {
    return {
      matchedIntent: '',
      matchedScore: null,
      expectedScore: null,
      confidence: null,
      bestIntent: '',
      tp: false,
      tn: false,
      fp: false,
      fn: false,
      error: true,
      entities: expectedEntities.map((e) => ({
        name: e.name,
        expected: entityText(e.value),
        matched: '',
        ok: false,
      })),
      success: false,
    };
  }
}
