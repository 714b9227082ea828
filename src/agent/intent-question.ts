/**
 * The dialog around a recognised intent (between dialogs): starts the intent's dialog, the fallback,
 * or asks the caller a question and hears the answer. A question is `confirm` ("Did you want to
 * refill a prescription?": yes/no by voice, keys 1/2) or `choose` ("Do you want to refill a
 * prescription, or hear the store hours?": the label or its words, "first"/"second", keys 1/2).
 * The question is kept in `state.question` until it is answered: yes or a choice starts the intent's
 * dialog; no (or "neither") says the denial prompt and awaits an intent again, counting as a retry;
 * an answer that is neither, no input or no match asks again up to the retries, then the app's
 * exceeding behaviour applies.
 */
import { DEFAULT_RETRIES, type DialogRunner } from './dialog-runner.js';
import { extractEntity, type ListValue } from './entity-extractors.js';
import { decideIntent, describeDecision } from './intent-decision.js';
import { fillNluPrompt } from './nlu-settings.js';
import type {
  AwaitSpec,
  DialogState,
  FallbackReason,
  IntentDecision,
  PromptPart,
  RecognitionResult,
  TurnInput,
  TurnResult,
} from './turn-types.js';

type Question = NonNullable<DialogState['question']>;
type Utterance = Extract<TurnInput, { kind: 'utterance' }>;

const ORDINALS = ['first', 'second'];
const KEYS = ['1', '2'];
/** Words of a label too common to tell two labels apart. */
const COMMON = new Set([
  'the',
  'and',
  'for',
  'you',
  'your',
  'our',
  'with',
  'about',
  'want',
  'like',
  'would',
  'get',
  'hear',
  'make',
  'check',
]);
const NEITHER = /\b(neither|none)\b/i;

const label = (run: DialogRunner, intent: string): string => run.nlu.intents.get(intent)?.label ?? intent;

/** The words of `text` that `other` does not have (and that are not too common): a short answer. */
function ownWords(text: string, other: string): string[] {
  const words = (t: string) =>
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3 && !COMMON.has(w));
  const theirs = new Set(words(other));
  return [...new Set(words(text))].filter((w) => !theirs.has(w));
}

/** The choices of a `choose` question, in order: each intent with its label, own words and ordinal. */
function choices(run: DialogRunner, q: Question): ListValue[] {
  const labels = q.intents.map((i) => label(run, i));
  return q.intents.map((intent, k) => ({
    value: intent,
    synonyms: [labels[k]!, ...ownWords(labels[k]!, labels[1 - k] ?? ''), ORDINALS[k]!],
  }));
}

function questionPrompt(run: DialogRunner, q: Question): PromptPart[] {
  const { prompts } = run.nlu;
  const text =
    q.ask === 'confirm'
      ? fillNluPrompt(prompts.confirm, { label: label(run, q.intents[0]!) })
      : fillNluPrompt(prompts.choose, {
          first: label(run, q.intents[0]!),
          second: label(run, q.intents[1]!),
        });
  return [{ type: 'text', text }];
}

function questionAwait(run: DialogRunner, q: Question): AwaitSpec {
  if (q.ask === 'confirm') return { kind: 'entity', entityType: 'yesno' };
  // the labels and their words for voice, keys 1 and 2 (the list grammar's DTMF items), and a way out
  const values = [
    ...choices(run, q).flatMap((c) => (typeof c === 'string' ? [c] : c.synonyms)),
    ...KEYS,
    'neither',
    'no',
  ];
  return { kind: 'entity', entityType: 'list', values };
}

function ask(run: DialogRunner, q: Question, reason?: PromptPart[]): TurnResult {
  run.say(reason);
  run.state.question = q;
  run.trace.push(`?${q.ask} ${q.intents.join(' ')}`);
  run.say(questionPrompt(run, q));
  return run.awaitAnswerResult(questionAwait(run, q));
}

async function startIntent(run: DialogRunner, intent: string): Promise<TurnResult> {
  const dialog = run.agent.intentDialogs.get(intent);
  return dialog ? run.startDialog(dialog) : startFallback(run, 'no_dialog');
}

/** The agent's fallback dialog, with the reason kept for the turn's trace. */
function startFallback(run: DialogRunner, reason: FallbackReason): Promise<TurnResult> {
  run.fallback = { reason };
  return run.startDialog(run.agent.definition.fallbackDialog);
}

function decided(run: DialogRunner, decision: IntentDecision): void {
  run.decision = decision;
  run.trace.push(`#decision ${describeDecision(decision)}`);
}

/** Acts on a recognition of the caller's free utterance: the intent's dialog, a question, or the fallback. */
export async function routeRecognition(
  run: DialogRunner,
  recognition: RecognitionResult,
): Promise<TurnResult> {
  const decision = decideIntent(recognition, run.nlu);
  decided(run, decision);
  switch (decision.outcome) {
    case 'accept':
      return startIntent(run, decision.intent);
    case 'reject':
      // decideIntent rejects a recognition of None only: out of scope or below the threshold
      return startFallback(run, decision.reason === 'out_of_scope' ? 'out_of_scope' : 'below_threshold');
    case 'confirm':
      return ask(run, { ask: 'confirm', intents: [decision.intent] });
    case 'choose':
      return ask(run, { ask: 'choose', intents: [...decision.intents] });
  }
}

/** The intent the answer names, false for no, undefined when it says neither. */
function readAnswer(run: DialogRunner, q: Question, input: Utterance): string | false | undefined {
  const said = {
    text: input.text,
    inputmode: input.inputmode,
    ...(input.asr ? { interpretation: input.asr.interpretation } : {}),
  };
  const options = { now: run.now, timeZone: run.timeZone };
  if (q.ask === 'confirm') {
    const yes = extractEntity({ name: 'confirm', type: 'yesno' }, said, options);
    return yes.ok ? (yes.value === true ? q.intents[0] : false) : undefined;
  }
  const chosen = extractEntity({ name: 'choice', type: 'list', values: choices(run, q) }, said, options);
  if (chosen.ok && typeof chosen.value === 'string' && q.intents.includes(chosen.value)) return chosen.value;
  if (NEITHER.test(input.text) || NEITHER.test(input.asr?.interpretation ?? '')) return false;
  const no = extractEntity({ name: 'no', type: 'yesno' }, said, options);
  return no.ok && no.value === false ? false : undefined;
}

/** Counts a retry; true when the retries are exhausted. */
function spendRetry(run: DialogRunner): boolean {
  run.state.retries += 1;
  return run.state.retries > (run.settings.retries ?? DEFAULT_RETRIES);
}

/** The caller's turn while a question awaits its answer (`state.question` is set). */
export async function answerQuestion(run: DialogRunner, input: TurnInput): Promise<TurnResult> {
  const { state } = run;
  const q = state.question!;
  delete state.question;
  if (input.kind === 'maxretries') return run.exceedRetries(undefined);
  if (input.kind === 'continue' || input.kind === 'transfer') return ask(run, q);
  let kind: 'noinput' | 'nomatch' = input.kind === 'noinput' ? 'noinput' : 'nomatch';
  let why: NonNullable<TurnResult['failed']>['reason'] = 'event';
  if (input.kind === 'utterance') {
    const answer = input.belowThreshold ? undefined : readAnswer(run, q, input);
    if (typeof answer === 'string') {
      decided(run, {
        outcome: 'accept',
        intent: answer,
        reason: q.ask === 'confirm' ? 'confirmed' : 'chosen',
      });
      return startIntent(run, answer);
    }
    if (answer === false) {
      decided(run, { outcome: 'reject', reason: 'denied', intents: [...q.intents] });
      run.say([{ type: 'text', text: run.nlu.prompts.denied }]);
      return spendRetry(run) ? run.exceedRetries(undefined) : run.awaitIntentResult();
    }
    kind = 'nomatch';
    why = input.belowThreshold ? 'below_threshold' : 'no_match';
  }
  run.failed = { kind, reason: why };
  if (spendRetry(run)) return run.exceedRetries(undefined);
  return ask(run, q, run.renderSettings(run.setting(kind === 'noinput' ? 'noInputPrompt' : 'noMatchPrompt')));
}
