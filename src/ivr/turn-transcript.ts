/**
 * The IVR setting `log`: when true, each turn's caller words and the prompt text answered go to the
 * service log at info level, so an operator can follow a call without the history API. They are
 * personal data, so the setting is off by default; nothing secret is in them (the token stays in
 * the request, never in these fields).
 */
import type { Logger } from '../platform/index.js';
import type { TurnOutcome } from './turn-context.js';
import type { WebhookRequest } from './webhook-input.js';

/** The plain text of a prompt's parts (breaks and audio carry none). */
const promptText = (parts: ReadonlyArray<{ type: string; text?: string }>): string =>
  parts
    .map((p) => p.text ?? '')
    .filter(Boolean)
    .join(' ');

export function logTurnTranscript(
  logger: Logger,
  streamId: string,
  req: WebhookRequest,
  outcome: TurnOutcome,
): void {
  logger.info(
    {
      app: streamId,
      callId: req.callId,
      turn: req.turn ?? 0,
      event: req.event ?? 'input',
      heard: req.message,
      ...(outcome.kind === 'answer'
        ? { said: promptText(outcome.answer.prompt), action: outcome.answer.action }
        : { said: '', action: 'wait' }),
    },
    'turn transcript',
  );
}
