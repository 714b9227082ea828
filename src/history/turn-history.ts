/**
 * How the messages of an IVR turn are recorded. The IVR component builds them from bounded input
 * (generated ids, webhook parameters cut to their limits, the app's language code), so they skip the
 * schema check; only a model's answer can be longer than a message may be, and is cut to the limit.
 * They get the schema's defaults for a voice turn: received (incoming) or delivered (outgoing),
 * channel ivr, task kind Dialog.
 */
import type { HistoryRecorder, PreparedRecord } from './history-recorder.js';
import { MAX_TEXT, type ValidMessage } from './history-schemas.js';

/** A message of an IVR turn, as the IVR component builds it (its TurnMessage is this record). */
export interface TurnRecord {
  id: string;
  /** The app's streamId. */
  streamId: string;
  userId: string;
  identities: string[];
  sessionId: string;
  callId: string;
  type: 'incoming' | 'outgoing';
  text: string;
  channelUId: string;
  createdOn: number;
  lang: string;
  traceId?: string;
  asrMetaData?: unknown;
  /** Tags that history indexes (e.g. `hangup: 'idle'` on the message that records a call's end). */
  tags?: Record<string, string>;
}

export interface TurnHistory {
  record(messages: TurnRecord[]): Promise<void>;
  /** The write to apply in one step with the turn's commit; present only where the store can. */
  prepare?(messages: TurnRecord[]): PreparedRecord | null;
}

/** The first `max` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
const cutText = (text: string, max: number): string => {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
};

const toValid = (messages: TurnRecord[]): ValidMessage[] =>
  messages.map((m) => {
    const v: ValidMessage = {
      id: m.id,
      streamId: m.streamId,
      userId: m.userId,
      identities: m.identities,
      sessionId: m.sessionId,
      callId: m.callId,
      type: m.type,
      status: m.type === 'incoming' ? 'received' : 'delivered',
      text: m.text.length > MAX_TEXT ? cutText(m.text, MAX_TEXT) : m.text,
      channel: 'ivr',
      channelUId: m.channelUId,
      createdOn: m.createdOn,
      lang: m.lang,
      taskKind: 'Dialog',
    };
    if (m.traceId) v.traceId = m.traceId;
    if (m.asrMetaData) v.asrMetaData = m.asrMetaData;
    if (m.tags) v.tags = m.tags;
    return v;
  });

/**
 * The IVR turn's history: `prepare` (one step with the turn's commit) only where the store's atomic
 * spans slots (memory, a single Redis node; not a Redis Cluster).
 */
export function turnHistory(recorder: HistoryRecorder, atomicAcrossSlots: boolean): TurnHistory {
  return {
    record: (messages) => recorder.recordValid(toValid(messages)),
    ...(atomicAcrossSlots
      ? { prepare: (messages: TurnRecord[]) => recorder.prepare(toValid(messages)) }
      : {}),
  };
}
