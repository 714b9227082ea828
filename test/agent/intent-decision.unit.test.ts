import { describe, expect, it } from 'vitest';
import {
  decideIntent,
  describeDecision,
  labelFromName,
  resolveNluSettings,
  NLU_DEFAULTS,
  type RecognitionResult,
} from '../../src/agent/index.js';

const intents = [
  { name: 'RefillPrescription', utterances: ['refill my prescription'], dialog: 'refill' },
  { name: 'StoreHours', utterances: ['when are you open'], dialog: 'hours', label: 'hear the store hours' },
  { name: 'Transfer', utterances: ['talk to someone'], dialog: 'agent', confirm: 'always' as const },
  { name: 'Cancel', utterances: ['cancel it'], dialog: 'cancel', confirm: 'never' as const },
  { name: 'Balance', utterances: ['my balance'], dialog: 'balance', confirmAbove: 0.95 },
];
const settings = resolveNluSettings({ nlu: { threshold: 0.5, margin: 0.1, confirmAbove: 0.8 }, intents });

const nlu = (scores: Array<[string, number]>, extra: Partial<RecognitionResult> = {}): RecognitionResult => {
  const list = scores.map(([intent, score]) => ({ intent, score }));
  const best = list[0];
  const intent = best && best.score >= 0.5 ? best.intent : 'None';
  return { intent, score: best?.score ?? 0, scores: list, source: 'nlu', ...extra };
};

describe('the decision on a recognition', () => {
  it('when the best intent is well above the others and above confirmAbove, then it is accepted as confident', () => {
    expect(
      decideIntent(
        nlu([
          ['RefillPrescription', 0.92],
          ['StoreHours', 0.3],
        ]),
        settings,
      ),
    ).toEqual({ outcome: 'accept', intent: 'RefillPrescription', reason: 'confident' });
  });

  it('when the confidence is between the threshold and confirmAbove, then the intent is confirmed as unsure', () => {
    expect(
      decideIntent(
        nlu([
          ['RefillPrescription', 0.65],
          ['StoreHours', 0.2],
        ]),
        settings,
      ),
    ).toEqual({ outcome: 'confirm', intent: 'RefillPrescription', reason: 'unsure' });
  });

  it('when the two best are within the margin, then the caller chooses between them (best first), whatever confirmAbove says', () => {
    const d = decideIntent(
      nlu([
        ['StoreHours', 0.9],
        ['RefillPrescription', 0.82],
        ['Cancel', 0.1],
      ]),
      settings,
    );
    expect(d).toEqual({
      outcome: 'choose',
      intents: ['StoreHours', 'RefillPrescription'],
      reason: 'ambiguous',
    });
    expect(describeDecision(d)).toBe('ambiguous between StoreHours and RefillPrescription');
  });

  it('when the second is just outside the margin, then there is no question about it', () => {
    expect(
      decideIntent(
        nlu([
          ['StoreHours', 0.9],
          ['RefillPrescription', 0.79],
        ]),
        settings,
      ).outcome,
    ).toBe('accept');
  });

  it('when the margin is 0, then close scores are not asked about', () => {
    const off = resolveNluSettings({ nlu: { threshold: 0.5, margin: 0, confirmAbove: 0.8 }, intents });
    expect(
      decideIntent(
        nlu([
          ['StoreHours', 0.9],
          ['RefillPrescription', 0.89],
        ]),
        off,
      ),
    ).toMatchObject({ outcome: 'accept', intent: 'StoreHours' });
  });

  it('when the second intent has no confidence at all, then it is not offered even under a wide margin', () => {
    const wide = resolveNluSettings({ nlu: { threshold: 0.05, margin: 1 }, intents });
    expect(
      decideIntent(
        nlu([
          ['StoreHours', 0.6],
          ['RefillPrescription', 0],
        ]),
        wide,
      ).outcome,
    ).toBe('accept');
  });

  it('when an intent says confirm always or never, or has its own confirmAbove, then that wins over the agent level', () => {
    expect(decideIntent(nlu([['Transfer', 0.99]]), settings)).toEqual({
      outcome: 'confirm',
      intent: 'Transfer',
      reason: 'always',
    });
    expect(decideIntent(nlu([['Cancel', 0.55]]), settings)).toEqual({
      outcome: 'accept',
      intent: 'Cancel',
      reason: 'confident',
    });
    expect(decideIntent(nlu([['Balance', 0.9]]), settings)).toMatchObject({
      outcome: 'confirm',
      reason: 'unsure',
    });
  });

  it('when the recognizer rejected the utterance, then the reason is its own (out of scope) or below threshold', () => {
    expect(decideIntent(nlu([['StoreHours', 0.2]], { rejection: 'out_of_scope' }), settings)).toEqual({
      outcome: 'reject',
      reason: 'out_of_scope',
    });
    expect(decideIntent(nlu([['StoreHours', 0.2]], { rejection: 'below_threshold' }), settings)).toEqual({
      outcome: 'reject',
      reason: 'below_threshold',
    });
    expect(decideIntent(nlu([['StoreHours', 0.2]]), settings)).toEqual({
      outcome: 'reject',
      reason: 'below_threshold',
    });
    expect(describeDecision({ outcome: 'reject', reason: 'out_of_scope' })).toBe('out of scope');
  });

  it("when the browser's grammar named the intent, then it is accepted as before (no question, whatever the margin)", () => {
    const r: RecognitionResult = {
      intent: 'Transfer',
      score: 0.4,
      scores: [{ intent: 'Transfer', score: 0.4 }],
      source: 'grammar',
    };
    expect(decideIntent(r, settings)).toEqual({ outcome: 'accept', intent: 'Transfer', reason: 'grammar' });
  });

  it('when an agent has no nlu block, then the defaults apply: the old intentThreshold, no confirmation, the default margin', () => {
    const old = resolveNluSettings({ intentThreshold: 0.7, intents });
    expect(old).toMatchObject({
      threshold: 0.7,
      confirmAbove: 0.7,
      margin: NLU_DEFAULTS.margin,
      prompts: NLU_DEFAULTS.prompts,
    });
    expect(resolveNluSettings({ intents }).threshold).toBe(NLU_DEFAULTS.threshold);
    expect(resolveNluSettings({ intentThreshold: 0.7, nlu: { threshold: 0.4 }, intents }).threshold).toBe(
      0.4,
    );
    expect(
      decideIntent(
        nlu([
          ['RefillPrescription', 0.71],
          ['StoreHours', 0.29],
        ]),
        old,
      ).outcome,
    ).toBe('accept');
  });

  it('when a label is not given, then it is derived from the intent name', () => {
    expect(labelFromName('RefillPrescription')).toBe('refill a prescription');
    expect(labelFromName('store_hours')).toBe('store hours');
    expect(labelFromName('LeaveMessage')).toBe('leave a message');
    expect(labelFromName('CheckBalance')).toBe('check balance');
    expect(settings.intents.get('StoreHours')?.label).toBe('hear the store hours');
  });
});
