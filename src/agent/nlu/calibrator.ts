/**
 * Turns an intent's features into a calibrated confidence: a logistic model whose coefficients were
 * fitted offline by `npm run fit:nlu` (bench/fit-nlu-calibrator.ts) on the tuning half of the HWU64
 * sample, with in-scope and out-of-scope utterances weighted equally. Refit and paste its output
 * here whenever a feature changes, and bump the model version in intent-recognizer.ts.
 */
import type { IntentFeatureRow } from './intent-features.js';

/** The features the model reads, in the order of its coefficients. */
export function calibrationFeatures(row: IntentFeatureRow): number[] {
  return [row.softCoverage, row.softMargin, row.coverage, row.similarity, row.margin];
}

/** Coefficients of `calibrationFeatures`, then the intercept (from `npm run fit:nlu`). */
export const CALIBRATION_COEFFICIENTS: readonly number[] = [0.353, 4.307, 3.92, 1.514, 3.508, -4.692];

/** The confidence (0..1) that the utterance is meant for this row's intent. */
export function calibratedConfidence(row: IntentFeatureRow): number {
  const x = calibrationFeatures(row);
  let z = CALIBRATION_COEFFICIENTS[x.length] as number;
  x.forEach((v, i) => {
    z += v * (CALIBRATION_COEFFICIENTS[i] as number);
  });
  return 1 / (1 + Math.exp(-z));
}
