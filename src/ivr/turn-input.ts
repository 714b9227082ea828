/** Turns a webhook request into the agent's TurnInput and the ASR metadata of the caller's message. */
import type { AsrMeta, CompiledAgent, TurnInput } from '../agent/index.js';
import { belowThreshold, buildAsrMeta, parseNlsml, type RawAsr } from './asr-metadata.js';
import type { WebhookRequest } from './webhook-input.js';
import { startInput } from './ivr-languages.js';
import type { IvrSettings } from '../ivr-settings/index.js';

export interface ReadInput {
  input: TurnInput;
  asr?: AsrMeta & { data: { text: AsrMeta } };
  /** What the caller said, for history ('' when nothing). */
  text: string;
}

export function toTurnInput(
  req: WebhookRequest,
  isStart: boolean,
  settings: IvrSettings,
  agent: CompiledAgent,
): ReadInput {
  if (isStart) return { input: startInput(req, settings), text: '' };
  switch (req.event) {
    case 'noinput':
    case 'nomatch':
    case 'maxretries':
    case 'continue':
    case 'hangup':
      return { input: { kind: req.event }, text: '' };
    case 'transfer':
      return { input: { kind: 'transfer', result: req.transferResult ?? 'unknown' }, text: '' };
    case 'recording':
      return recorded(req);
    default:
      break;
  }
  const nlsml = req.nlsml ? parseNlsml(req.nlsml) : null;
  const raw: RawAsr = nlsml ?? {
    confidence: req.confidence,
    inputmode: req.inputmode,
    interpretation: req.interpretation,
    utterance: req.utterance,
  };
  const message = (nlsml?.utterance ?? req.message).trim();
  if (message === '' && !nlsml) return { input: { kind: 'noinput' }, text: '' };
  const asr = buildAsrMeta(raw, message);
  const intentNames = new Set(agent.definition.intents.map((i) => i.name));
  const interp = asr.interpretation.trim();
  const grammarIntent =
    intentNames.has(interp) && interp.toLowerCase() !== message.toLowerCase() ? interp : undefined;
  return {
    input: {
      kind: 'utterance',
      text: message,
      inputmode: asr.Inputmode === 'dtmf' ? 'dtmf' : 'voice',
      ...(grammarIntent ? { grammarIntent } : {}),
      asr: {
        confidence: asr.confidence,
        Inputmode: asr.Inputmode,
        interpretation: asr.interpretation,
        utterance: asr.utterance,
      },
      // the threshold is the recogniser's: keys are exact, whatever confidence a browser reports for them
      belowThreshold:
        asr.Inputmode !== 'dtmf' && belowThreshold(asr.confidence, settings.confidenceThreshold),
    },
    asr,
    text: message,
  };
}

/**
 * A `<record>` in place of a field (no grammar could collect free text): the gateway gets the
 * recording's duration, not its audio, so the caller's words stand as a note of the voice message.
 */
function recorded(req: WebhookRequest): ReadInput {
  const ms = Number(req.recording);
  const text =
    Number.isFinite(ms) && ms > 0
      ? `(voice message, ${Math.max(1, Math.round(ms / 1000))} s)`
      : '(voice message)';
  return { input: { kind: 'utterance', text, inputmode: 'voice' }, text };
}
