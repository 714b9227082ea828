/**
 * The object that rules and placeholders read:
 * `{context: {...vars, entities, session, from, to, callId, userId}, session, entities}`.
 * `session.BotUserSession.lastMessage.asrMetaData.confidence` (and the copy under `data.text`) is
 * converted from the browser's decimal string to a number, so `confidence < 0.6` compares numbers.
 */
import { toNumber } from './expression.js';
import type { AsrMeta, CallContext, DialogState } from './turn-types.js';

export interface EvaluationContext {
  context: Record<string, unknown>;
  session: { BotUserSession: { lastMessage: Record<string, unknown> } };
  entities: Record<string, unknown>;
}

/** Names the context object owns; vars (llm `saveAs`, table results) cannot shadow them. */
export const reservedContextKeys: readonly string[] = [
  'entities',
  'session',
  'from',
  'to',
  'callId',
  'userId',
  'appId',
];

const numericAsr = (asr: AsrMeta): Record<string, unknown> => ({
  ...asr,
  confidence: toNumber(asr.confidence),
});

export function buildEvaluationContext(state: DialogState, call: CallContext): EvaluationContext {
  const last = state.lastMessage;
  const lastMessage: Record<string, unknown> = { text: last?.text ?? '' };
  if (last?.asrMetaData) {
    const { data, ...four } = last.asrMetaData;
    lastMessage.asrMetaData = { ...numericAsr(four), data: { text: numericAsr(data.text) } };
  }
  const session = { BotUserSession: { lastMessage } };
  const context: Record<string, unknown> = {
    ...state.vars,
    entities: state.entities,
    session,
    from: call.from ?? '',
    to: call.to ?? '',
    callId: call.callId,
    userId: call.userId,
    // `appId` is the agent language's name for the app's streamId (docs/agent.md): kept for agent authors
    appId: call.streamId,
  };
  return { context, session, entities: state.entities };
}
