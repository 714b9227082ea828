/**
 * The `results` counters of a run and the three ratios.
 *   TP/TN/FP/FN: see score-utterance.ts (a wrong intent counts in FP and in FN).
 *   success: utterances with the intent outcome right (TP or TN) and every expected entity matched;
 *   failure: every other utterance tested, including those the recognizer failed on.
 *   failedUtteranceCount: utterances the recognizer failed on (error or timeout).
 *   totalEntitiesCount / matchedEntitiesCount / failedEntitiesCount: expected entities, matched, not.
 *   traits: this product has none, so the four trait counters stay 0.
 *   precision = TP/(TP+FP), recall = TP/(TP+FN), f1 = 2PR/(P+R); each a string with two decimals,
 *   "0.00" when undefined (a zero denominator).
 */
import type { UtteranceOutcome } from './score-utterance.js';

export interface RunCounters {
  TP: number;
  TN: number;
  FP: number;
  FN: number;
  success: number;
  failure: number;
  traitSuccess: number;
  traitFailure: number;
  totalEntitiesCount: number;
  matchedEntitiesCount: number;
  totalTraitsCount: number;
  matchedTraitsCount: number;
  failedUtteranceCount: number;
  failedEntitiesCount: number;
}

export const emptyCounters = (): RunCounters => ({
  TP: 0,
  TN: 0,
  FP: 0,
  FN: 0,
  success: 0,
  failure: 0,
  traitSuccess: 0,
  traitFailure: 0,
  totalEntitiesCount: 0,
  matchedEntitiesCount: 0,
  totalTraitsCount: 0,
  matchedTraitsCount: 0,
  failedUtteranceCount: 0,
  failedEntitiesCount: 0,
});

/** Reads stored counters, tolerating missing members. */
export function parseCounters(json: string | undefined): RunCounters {
  const c = emptyCounters();
  if (!json) return c;
  const raw = JSON.parse(json) as Record<string, unknown>;
  for (const k of Object.keys(c) as Array<keyof RunCounters>) if (typeof raw[k] === 'number') c[k] = raw[k];
  return c;
}

export function addOutcome(c: RunCounters, o: UtteranceOutcome): void {
  if (o.tp) c.TP++;
  if (o.tn) c.TN++;
  if (o.fp) c.FP++;
  if (o.fn) c.FN++;
  if (o.success) c.success++;
  else c.failure++;
  if (o.error) c.failedUtteranceCount++;
  const matched = o.entities.filter((e) => e.ok).length;
  c.totalEntitiesCount += o.entities.length;
  c.matchedEntitiesCount += matched;
  c.failedEntitiesCount += o.entities.length - matched;
}

const ratio = (num: number, den: number): number | undefined => (den > 0 ? num / den : undefined);
const two = (v: number | undefined): string =>
  v === undefined || !Number.isFinite(v) ? '0.00' : v.toFixed(2);

export function runRatios(c: RunCounters): { precision: string; recall: string; f1_score: string } {
  const p = ratio(c.TP, c.TP + c.FP);
  const r = ratio(c.TP, c.TP + c.FN);
  const f1 = p !== undefined && r !== undefined ? ratio(2 * p * r, p + r) : undefined;
  return { precision: two(p), recall: two(r), f1_score: two(f1) };
}
