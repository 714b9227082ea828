/**
 * One caller turn: takes what happened on the caller's side and the stored dialog state, returns
 * the next prompt / action and the new state. Pure apart from the ports; never throws (an
 * unexpected failure is an error result).
 */
import type { CompiledAgent } from './compile-agent.js';
import type { CompiledNode, UtteranceInput } from './define-node.js';
import { DEFAULT_RETRIES, DialogRunner } from './dialog-runner.js';
import { answerQuestion, routeRecognition } from './intent-question.js';
import { chosenLanguage, languageChoiceEnabled, languageOffer } from './language-choice.js';
import { matchLanguage } from './languages.js';
import { nodeRegistry } from './node-registry.js';
import type {
  AgentPorts,
  AgentRuntimeSettings,
  AsrMeta,
  CallContext,
  DialogState,
  RecognitionResult,
  TurnInput,
  TurnResult,
} from './turn-types.js';

export { DEFAULT_NO_MATCH_PROMPT, DEFAULT_RETRIES } from './dialog-runner.js';

export function initialDialogState(): DialogState {
  return { dialog: null, node: null, entities: {}, vars: {}, retries: 0, turns: 0, ended: false };
}

function rememberMessage(state: DialogState, input: UtteranceInput): void {
  if (!input.asr) {
    state.lastMessage = { text: input.text };
    return;
  }
  const four: AsrMeta = {
    confidence: String(input.asr.confidence),
    Inputmode: String(input.asr.Inputmode),
    interpretation: String(input.asr.interpretation),
    utterance: String(input.asr.utterance),
  };
  state.lastMessage = { text: input.text, asrMetaData: { ...four, data: { text: { ...four } } } };
}

/** A failed attempt (no match, no input, below the confidence threshold) at the current position. */
async function failedAttempt(
  run: DialogRunner,
  node: CompiledNode | undefined,
  kind: 'noinput' | 'nomatch',
  why: NonNullable<TurnResult['failed']>['reason'] = 'event',
): Promise<TurnResult> {
  const { state, settings } = run;
  run.failed = { kind, reason: why };
  state.retries += 1;
  const allowed = node?.def.ivr?.retries ?? settings.retries ?? DEFAULT_RETRIES;
  if (state.retries > allowed) return run.exceedRetries(node);
  const field = kind === 'noinput' ? 'ivr.noInputPrompt' : 'ivr.noMatchPrompt';
  const reason =
    (node ? run.prompt(node, field) : undefined) ??
    run.renderSettings(run.setting(kind === 'noinput' ? 'noInputPrompt' : 'noMatchPrompt'));
  if (node) return run.reask(node, reason);
  run.say(reason);
  return run.awaitIntentResult();
}

async function recognize(run: DialogRunner, input: UtteranceInput): Promise<RecognitionResult> {
  const { agent } = run;
  if (input.grammarIntent !== undefined && agent.intentDialogs.has(input.grammarIntent)) {
    const confidence = Number(input.asr?.confidence);
    const score = Number.isFinite(confidence) && confidence > 0 ? Math.min(confidence, 1) : 1;
    return {
      intent: input.grammarIntent,
      score,
      scores: [{ intent: input.grammarIntent, score }],
      source: 'grammar',
    };
  }
  const own = run.language === agent.languages[0] ? undefined : agent.recognizers.get(run.language);
  return (own ?? agent.recognizer).recognize(input.text);
}

async function onUtterance(
  run: DialogRunner,
  input: UtteranceInput,
  asking: CompiledNode | undefined,
): Promise<TurnResult> {
  const { state } = run;
  rememberMessage(state, input);
  if (asking) {
    const module = nodeRegistry.get(asking.def.type);
    const extraction =
      input.belowThreshold || !module?.accept ? { ok: false as const } : module.accept(asking, run, input);
    if (!extraction.ok)
      return failedAttempt(run, asking, 'nomatch', input.belowThreshold ? 'below_threshold' : 'no_match');
    const name = module?.entityName?.(asking);
    if (name !== undefined) state.entities[name] = extraction.value;
    state.retries = 0;
    return run.continueAfter(asking);
  }
  if (input.belowThreshold) return failedAttempt(run, undefined, 'nomatch', 'below_threshold');
  const chosen = languageChoiceEnabled(run.agent) ? chosenLanguage(run.agent, input) : undefined;
  if (chosen !== undefined) return switchLanguage(run, chosen, input.inputmode);
  const recognition = await recognize(run, input);
  run.recognition = recognition;
  run.trace.push(`#intent ${recognition.intent} ${recognition.score.toFixed(3)} (${recognition.source})`);
  // a dialog it starts counts its retries afresh; a question about it counts on (a denial is a retry)
  return routeRecognition(run, recognition);
}

/** The caller chose a language: it is the call's from now on, and the welcome dialog starts again in it. */
async function switchLanguage(
  run: DialogRunner,
  language: string,
  by: 'dtmf' | 'voice',
): Promise<TurnResult> {
  const from = run.language;
  run.state.language = language;
  run.languageChanged = { from, to: language, by };
  run.trace.push(`#language ${from} → ${language} (${by})`);
  return run.startDialog(run.agent.definition.welcomeDialog);
}

/** The first turn: the language the channel gave (if the agent has it), else the offer of the languages. */
async function welcome(run: DialogRunner, language: string | undefined): Promise<TurnResult> {
  const { agent, state } = run;
  const given = matchLanguage(agent.languages, language);
  if (given !== undefined) {
    state.language = given;
    if (given !== agent.languages[0])
      run.languageChanged = { from: agent.languages[0]!, to: given, by: 'channel' };
  } else if (languageChoiceEnabled(agent)) {
    run.languageOffer = languageOffer(agent, run.language);
  }
  return run.startDialog(agent.definition.welcomeDialog);
}

async function dispatch(run: DialogRunner, input: TurnInput): Promise<TurnResult> {
  const { state } = run;
  if (input.kind === 'start') return welcome(run, input.language);
  if (input.kind === 'hangup' || state.ended) {
    state.ended = true;
    return run.endResult();
  }
  const node = run.node(state.dialog, state.node);
  if (state.pending === 'continue') {
    // The say-and-continue document played: run the node it stopped before (whatever the event).
    if (input.kind === 'utterance') rememberMessage(state, input);
    return node ? run.runFrom(node.dialog, node.id) : run.finishDialog();
  }
  if (state.pending === 'transfer') {
    // The transfer returned: its outcome is readable as context.transferResult by the node's rules.
    if (input.kind === 'utterance') rememberMessage(state, input);
    state.vars.transferResult = input.kind === 'transfer' ? input.result : 'unknown';
    delete state.pending;
    return node ? run.continueAfter(node) : run.finishDialog();
  }
  if (state.question) {
    if (input.kind === 'utterance') rememberMessage(state, input);
    return answerQuestion(run, input);
  }
  const asking = node && nodeRegistry.get(node.def.type)?.accept ? node : undefined;
  switch (input.kind) {
    case 'utterance':
      return onUtterance(run, input, asking);
    case 'noinput':
    case 'nomatch':
      return failedAttempt(run, asking, input.kind);
    case 'maxretries':
      return run.exceedRetries(asking);
    case 'continue':
    case 'transfer':
      // Nothing is pending: present the current question again.
      return asking ? run.reask(asking, undefined) : run.finishDialog();
  }
}

/**
 * The state a turn works on. The runner and the nodes assign top-level fields and set or delete keys
 * of `entities` and `vars`, and never change a value in place (lastMessage and saved answers are
 * replaced whole), so copying those two maps is enough to leave the caller's state as it was. It is
 * a tenth of a deep copy's cost on the turn path; the agent tests pass every state in deep-frozen.
 */
function workingCopy(state: DialogState): DialogState {
  return { ...state, entities: { ...state.entities }, vars: { ...state.vars } };
}

/**
 * Runs one turn. `state` is not modified: the result carries the new state (null = new call).
 * `start` always begins a new conversation with the welcome dialog.
 */
export async function runTurn(
  agent: CompiledAgent,
  input: TurnInput,
  state: DialogState | null,
  call: CallContext,
  settings: AgentRuntimeSettings,
  ports: AgentPorts,
): Promise<TurnResult> {
  const working = state && input.kind !== 'start' ? workingCopy(state) : initialDialogState();
  working.turns += 1;
  const run = new DialogRunner(agent, working, call, settings, ports);
  try {
    return await dispatch(run, input);
  } catch {
    return run.errorResult('agent_failure');
  }
}
