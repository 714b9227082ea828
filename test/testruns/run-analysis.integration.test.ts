import { describe, expect, it } from 'vitest';
import {
  MATRIX_INTENTS,
  OTHER,
  addToAnalysis,
  analysisView,
  emptyAnalysis,
  parseAnalysis,
} from '../../src/testruns/run-analysis.js';
import type { UtteranceOutcome } from '../../src/testruns/score-utterance.js';

/**
 * An outcome as score-utterance makes it (only the members the analysis reads matter). The
 * best-scoring intent is the matched one unless given (a rejection then has none).
 */
function outcome(
  matchedIntent: string,
  confidence: number | null,
  error = false,
  bestIntent = matchedIntent === 'None' ? '' : matchedIntent,
): UtteranceOutcome {
  return {
    matchedIntent,
    matchedScore: null,
    expectedScore: null,
    confidence,
    bestIntent,
    tp: false,
    tn: false,
    fp: false,
    fn: false,
    error,
    entities: [],
    success: false,
  };
}

describe('the analysis of a run', () => {
  it('when nothing expected or matched None, then the matrix still has None, last, and the false-accept rate is null', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'Hours', outcome('Hours', 0.9));
    const v = analysisView(a);
    expect(v.confusionMatrix).toEqual({
      labels: ['Hours', 'None'],
      matrix: [
        [1, 0],
        [0, 0],
      ],
    });
    expect(v.falseAcceptRate).toBeNull();
    expect(v.inScopeAccuracy).toBe(1);
  });

  it('when intent names differ only in case, then they share one label, the recognizer spelling', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'hours', outcome('Hours', 0.8));
    addToAnalysis(a, 'HOURS', outcome('None', 0.2));
    addToAnalysis(a, 'none', outcome('Hours', 0.7));
    const v = analysisView(a);
    expect(v.confusionMatrix).toEqual({
      labels: ['Hours', 'None'],
      matrix: [
        [1, 1],
        [1, 0],
      ],
    });
    expect(v.counters).toEqual({
      outOfScopeCount: 1,
      falseAcceptCount: 1,
      inScopeCount: 2,
      inScopeCorrectCount: 1,
      falseRejectCount: 1,
    });
  });

  it('when the recognizer failed on an utterance, then it is in none of the figures', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'None', outcome('', null, true));
    const v = analysisView(a);
    expect(v.counters.outOfScopeCount).toBe(0);
    expect(v.calibration?.ece).toBeNull();
    expect(v.calibration?.bins.every((b) => b.count === 0 && b.accuracy === null)).toBe(true);
  });

  it('when scores sit on bin edges or outside [0, 1], then 1 falls in the last bin, 0.1 in the second, and the rest are clamped', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'A', outcome('A', 1)); // bin 9, right
    addToAnalysis(a, 'A', outcome('A', 1.5)); // clamped to 1: bin 9, right
    addToAnalysis(a, 'A', outcome('B', 0.1)); // bin 1, wrong
    addToAnalysis(a, 'None', outcome('None', -0.2)); // clamped to 0: bin 0, wrong (None expected: no intent is right)
    const v = analysisView(a);
    expect(v.calibration?.bins.map((b) => b.count)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
    // ECE = 2/4·|1 − 1| + 1/4·|0 − 0.1| + 1/4·|0 − 0| = 0.025
    expect(v.calibration?.ece).toBeCloseTo(0.025, 10);
  });

  it('when an off-topic utterance is rejected with a low score, then it is a rightly low confidence, not a right answer at that score', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'None', outcome('None', 0.03, false, 'Hours')); // bin 0: best intent Hours, None expected → wrong
    addToAnalysis(a, 'Hours', outcome('Hours', 0.95)); // bin 9: right
    const v = analysisView(a);
    expect(v.calibration?.bins[0]).toMatchObject({ count: 1, accuracy: 0 });
    expect(v.calibration?.bins[0]?.meanConfidence).toBeCloseTo(0.03, 10);
    // ECE = 1/2·|0 − 0.03| + 1/2·|1 − 0.95| = 0.04 (counted right, the rejection would add 1/2·|1 − 0.03|: 0.51)
    expect(v.calibration?.ece).toBeCloseTo(0.04, 10);
    // the rejection is still a correct one for the routing figures
    expect(v.falseAcceptRate).toBe(0);
    expect(v.confusionMatrix.matrix).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('when an in-scope utterance is rejected but its best-scoring intent is the expected one, then calibration counts it right and accuracy does not', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'Hours', outcome('None', 0.45, false, 'hours')); // bin 4: best intent Hours (any case) = expected → right
    addToAnalysis(a, 'Hours', outcome('None', 0.35, false, 'Booking')); // bin 3: best intent Booking → wrong
    const v = analysisView(a);
    expect(v.calibration?.bins.map((b) => b.accuracy)).toEqual([
      null,
      null,
      null,
      0,
      1,
      null,
      null,
      null,
      null,
      null,
    ]);
    // ECE = 1/2·|1 − 0.45| + 1/2·|0 − 0.35| = 0.45
    expect(v.calibration?.ece).toBeCloseTo(0.45, 10);
    expect(v.inScopeAccuracy).toBe(0);
    expect(v.counters.falseRejectCount).toBe(2);
  });

  it('when a suite names more intents than the matrix keeps, then the rarest are summed under OTHER and no utterance is lost', () => {
    const a = emptyAnalysis();
    for (let i = 0; i < MATRIX_INTENTS + 10; i++)
      for (let k = 0; k <= (i < 5 ? 3 : 0); k++)
        addToAnalysis(a, `Intent${String(i).padStart(3, '0')}`, outcome('None', 0.1));
    const v = analysisView(a);
    expect(v.confusionMatrix.labels).toHaveLength(MATRIX_INTENTS + 1);
    expect(v.confusionMatrix.labels.slice(-2)).toEqual([OTHER, 'None']);
    expect(v.confusionMatrix.labels).toContain('Intent000'); // among the most used
    const total = v.confusionMatrix.matrix.flat().reduce((s, n) => s + n, 0);
    expect(total).toBe(MATRIX_INTENTS + 10 + 5 * 3);
  });

  it('when the tally is stored and read back, then it gives the same view; an absent one reads as undefined', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'A', outcome('A', 0.55));
    addToAnalysis(a, 'None', outcome('A', 0.65));
    expect(analysisView(parseAnalysis(JSON.stringify(a))!)).toEqual(analysisView(a));
    expect(parseAnalysis(undefined)).toBeUndefined();
  });

  it('when a tally was stored under the older calibration definition, then it reads with every figure but the calibration', () => {
    const a = emptyAnalysis();
    addToAnalysis(a, 'None', outcome('None', 0.1));
    const { bestIntentCalibration: _, ...older } = a;
    const v = analysisView(parseAnalysis(JSON.stringify(older))!);
    expect(v.calibration).toBeUndefined();
    expect(v.counters).toEqual(analysisView(a).counters);
    expect(v.confusionMatrix).toEqual(analysisView(a).confusionMatrix);
  });
});
