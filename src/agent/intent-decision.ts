/**
 * The pure decision on a recognition: accept its intent, confirm it, ask which of two, or reject
 * it, with the reason (see IntentDecision). The recognizer has already applied the threshold (its
 * `intent` is 'None' under it); the margin and the confirmation levels are applied here.
 */
import type { NluSettings } from './nlu-settings.js';
import type { IntentDecision, RecognitionResult } from './turn-types.js';

/** Where the decision reads its settings: the agent's, or a test's. */
export type DecisionSettings = Pick<NluSettings, 'margin' | 'confirmAbove' | 'intents'>;

/** What to do with a recognition (the caller's free utterance, between dialogs). */
export function decideIntent(recognition: RecognitionResult, settings: DecisionSettings): IntentDecision {
  if (recognition.intent === 'None')
    return { outcome: 'reject', reason: recognition.rejection ?? 'below_threshold' };
  const intent = recognition.intent;
  // a grammar that names the intent is the browser's decision: kept as it always was
  if (recognition.source === 'grammar') return { outcome: 'accept', intent, reason: 'grammar' };
  const second = recognition.scores.find((s) => s.intent !== intent);
  if (
    second &&
    settings.margin > 0 &&
    recognition.score - second.score <= settings.margin &&
    second.score > 0
  ) {
    return { outcome: 'choose', intents: [intent, second.intent], reason: 'ambiguous' };
  }
  const own = settings.intents.get(intent);
  const mode = own?.confirm ?? 'auto';
  if (mode === 'always') return { outcome: 'confirm', intent, reason: 'always' };
  if (mode === 'auto' && recognition.score < (own?.confirmAbove ?? settings.confirmAbove))
    return { outcome: 'confirm', intent, reason: 'unsure' };
  return { outcome: 'accept', intent, reason: 'confident' };
}

/** The decision in words, for traces and logs ("ambiguous between A and B", "denied A"). */
export function describeDecision(d: IntentDecision): string {
  switch (d.outcome) {
    case 'accept':
      return `${d.intent} ${d.reason}`;
    case 'confirm':
      return `confirm ${d.intent} (${d.reason === 'always' ? 'always asked' : 'unsure'})`;
    case 'choose':
      return `ambiguous between ${d.intents[0]} and ${d.intents[1]}`;
    case 'reject':
      return d.reason === 'denied'
        ? `denied ${d.intents?.join(' or ') ?? ''}`.trim()
        : d.reason.replace(/_/g, ' ');
  }
}
