/**
 * The turn loop's OpenTelemetry spans, through the API alone (no-ops while telemetry is off): the
 * turn (`ivr.turn`, one per webhook request that reaches the turn loop), the agent's step
 * (`agent.step`, its model calls are children) and the history write (`history.write`: the turn's
 * messages with the session's commit). Attributes are only built for spans that record; none
 * carries what the caller said or their number.
 */
import type { TurnResult } from '../agent/index.js';
import { annotate, inSpan } from '../platform/index.js';
import type { TurnMessage, WebhookRequest } from '../ivr/index.js';

const NO_OPTIONS = {};

/** Runs one webhook request's turn in its span; `outcome` names how it was answered. */
export function turnSpan<T>(
  streamId: string,
  req: WebhookRequest,
  work: () => Promise<T>,
  outcome: (value: T) => string,
): Promise<T> {
  return inSpan('ivr.turn', NO_OPTIONS, async (span) => {
    annotate(span, () => ({
      'ivr.stream_id': streamId,
      'ivr.call_id': req.callId ?? '',
      'ivr.turn': req.turn ?? 0,
      'ivr.event': req.event ?? 'input',
    }));
    const value = await work();
    annotate(span, () => ({ 'ivr.outcome': outcome(value) }));
    return value;
  });
}

/** Runs the agent for the turn in its span. */
export function agentStepSpan(work: () => Promise<TurnResult>): Promise<TurnResult> {
  return inSpan('agent.step', NO_OPTIONS, async (span) => {
    const result = await work();
    annotate(span, () => ({
      'agent.action': result.error ? 'error' : result.action,
      ...(result.recognition ? { 'agent.intent': result.recognition.intent } : {}),
      ...(result.error ? { 'agent.error': result.error.code } : {}),
    }));
    return result;
  });
}

/** Writes the turn's history messages (and commits its session) in their span. */
export function historyWriteSpan<T>(messages: TurnMessage[], work: () => Promise<T>): Promise<T> {
  return inSpan('history.write', NO_OPTIONS, (span) => {
    annotate(span, () => ({ 'history.messages': messages.length }));
    return work();
  });
}
