/**
 * Builds the messages an IVR call records through the recorder, shaped like the webhook's: an
 * incoming utterance (with traceId and ASR metadata) and the agent's outgoing answer per turn,
 * identities = [callId, from], channel ivr, deterministic ids (ms-<uuid>) per call and turn.
 */
import { createHash } from 'node:crypto';
import type { NewMessage, TaskKind } from '../../src/history/index.js';

export interface IvrTurn {
  caller?: string;
  bot?: string;
  taskKind?: TaskKind;
  tags?: Record<string, string>;
  /** The caller's input is form input (a PIN): masked unless includeSecureForm. */
  secureForm?: boolean;
}

export interface IvrCallSpec {
  botId: string;
  userId: string;
  from: string;
  callId: string;
  sessionId?: string;
  start: number;
  turns: IvrTurn[];
  channel?: NewMessage['channel'];
  gapMs?: number;
}

export const uuidFrom = (seed: string): string => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
export const msgIdFor = (callId: string, turn: number, dir: 'in' | 'out'): string =>
  `ms-${uuidFrom(`${callId}/${turn}/${dir}`)}`;

export function ivrCall(spec: IvrCallSpec): NewMessage[] {
  const gap = spec.gapMs ?? 10_000;
  const out: NewMessage[] = [];
  const base: Omit<NewMessage, 'id' | 'type' | 'text' | 'createdOn'> = {
    streamId: spec.botId,
    userId: spec.userId,
    identities: [spec.callId, spec.from],
    sessionId: spec.sessionId ?? `sess-${spec.callId}`,
    callId: spec.callId,
    channel: spec.channel ?? 'ivr',
    channelUId: spec.from,
    lang: 'en',
  };
  spec.turns.forEach((t, i) => {
    const at = spec.start + i * gap;
    if (t.caller !== undefined) {
      const asr = {
        confidence: '0.810000',
        Inputmode: t.secureForm ? 'dtmf' : 'voice',
        interpretation: t.caller,
        utterance: t.caller,
      };
      out.push({
        ...base,
        id: msgIdFor(spec.callId, i, 'in'),
        type: 'incoming',
        text: t.caller,
        createdOn: at,
        traceId: `tr-${uuidFrom(`${spec.callId}/${i}/trace`)}`,
        asrMetaData: { ...asr, data: { text: asr } },
        ...(t.taskKind ? { taskKind: t.taskKind } : {}),
        ...(t.tags ? { tags: t.tags } : {}),
        ...(t.secureForm ? { secureForm: true } : {}),
      });
    }
    if (t.bot !== undefined) {
      out.push({
        ...base,
        id: msgIdFor(spec.callId, i, 'out'),
        type: 'outgoing',
        text: t.bot,
        createdOn: at + 1_000,
        ...(t.taskKind ? { taskKind: t.taskKind } : {}),
        ...(t.tags ? { tags: t.tags } : {}),
      });
    }
  });
  return out;
}
