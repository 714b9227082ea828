/** Shared fixtures of the agent tests: a call, settings, a fixed clock, input builders, fakes. */
import {
  compileAgent,
  runTurn,
  type AgentPorts,
  type AgentRuntimeSettings,
  type CallContext,
  type CompiledAgent,
  type DialogState,
  type LlmPort,
  type TurnInput,
  type TurnResult,
} from '../../src/agent/index.js';

export const call: CallContext = {
  streamId: 'st-demo',
  callId: 'call-1',
  userId: 'user-1',
  from: '+15551230000',
  to: '+15550001111',
  sessionId: 'sess-1',
};

export const settings: AgentRuntimeSettings = {
  retries: 2,
  onExceedingRetries: { action: 'terminationHandler' },
  noMatchPrompt: "Sorry, I didn't get that.",
  errorPrompt: 'Sorry, something went wrong.',
};

/** Wednesday 10 March 2027, noon UTC. */
export const fixedNow = new Date('2027-03-10T12:00:00Z');

export const voice = (
  text: string,
  confidence = '0.900000',
  extra: Partial<Extract<TurnInput, { kind: 'utterance' }>> = {},
): TurnInput => ({
  kind: 'utterance',
  text,
  inputmode: 'voice',
  asr: { confidence, Inputmode: 'voice', interpretation: text, utterance: text },
  ...extra,
});

export const dtmf = (digits: string): TurnInput => ({
  kind: 'utterance',
  text: digits,
  inputmode: 'dtmf',
  asr: { confidence: '1.0', Inputmode: 'dtmf', interpretation: digits, utterance: digits },
});

export const fakeLlm = (
  answer = 'We open at noon every day.',
): LlmPort & { calls: Parameters<LlmPort['complete']>[0][] } => {
  const calls: Parameters<LlmPort['complete']>[0][] = [];
  return {
    calls,
    complete: async (req) => {
      calls.push(req);
      return { text: answer, inputTokens: 12, outputTokens: 7 };
    },
  };
};

/** A definition with one dialog "main" (welcome) built from `nodes`, a fallback and one intent. */
export function miniDefinition(
  nodes: Record<string, unknown>,
  start: string,
  extraDialogs: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    language: 'en',
    welcomeDialog: 'main',
    fallbackDialog: 'fallback',
    intents: [{ name: 'Again', utterances: ['start again', 'once more', 'repeat that'], dialog: 'main' }],
    dialogs: {
      main: { start, nodes },
      fallback: { start: 'sorry', nodes: { sorry: { type: 'message', text: 'Sorry?' } } },
      ...extraDialogs,
    },
  };
}

export const compileMini = (
  nodes: Record<string, unknown>,
  start: string,
  extraDialogs: Record<string, unknown> = {},
): Promise<CompiledAgent> => compileAgent(miniDefinition(nodes, start, extraDialogs));

/** Runs inputs in order from a new call; returns every result. */
/** Freezes a value and everything reachable from it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export async function converse(
  agent: CompiledAgent,
  inputs: TurnInput[],
  options: { ports?: AgentPorts; settings?: AgentRuntimeSettings; state?: DialogState | null } = {},
): Promise<TurnResult[]> {
  const results: TurnResult[] = [];
  let state = options.state ?? null;
  for (const input of inputs) {
    // Frozen, so a turn that changed the state it was given would throw (and fail the test).
    const result = await runTurn(
      agent,
      input,
      state && deepFreeze(state),
      call,
      options.settings ?? settings,
      { now: () => fixedNow, ...options.ports },
    );
    results.push(result);
    state = result.state;
  }
  return results;
}

export const last = <T>(items: T[]): T => {
  const item = items[items.length - 1];
  if (item === undefined) throw new Error('empty');
  return item;
};
