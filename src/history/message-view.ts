/** A stored message hash as the Message that getMessages and getMessagesV2 answer with. */
import type { MessageAnswer } from './history-schemas.js';

export interface MessageViewOptions {
  /** The message's traceId (already looked up) when includeTraceId; null when expired or none. */
  traceId?: string | null;
  includeTraceId: boolean;
  /** Add the stored ASR metadata of voice messages, and the callId of IVR messages. */
  includeAsrMetaData?: boolean;
  /** Show the text of messages that carry form input. */
  includeSecureForm: boolean;
}

const parseTags = (raw: string | undefined): Record<string, string> => {
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, string>;
  } catch {
    return {};
  }
};

/** The stored ASR metadata of a voice turn (confidence, input mode…), or undefined. */
const parseAsr = (raw: string | undefined): MessageAnswer['asrMetaData'] => {
  if (!raw) return undefined;
  try {
    // as the IVR turn recorded it (the recognizer's AsrMeta)
    return JSON.parse(raw) as MessageAnswer['asrMetaData'];
  } catch {
    return undefined;
  }
};

export function messageView(row: Record<string, string>, opts: MessageViewOptions): MessageAnswer {
  const masked = row.secureForm === '1' && !opts.includeSecureForm;
  const channel = row.channel ?? 'rtm';
  const out: MessageAnswer = {
    _id: row.id ?? '',
    botId: row.botId ?? '',
    type: row.type === 'outgoing' ? 'outgoing' : 'incoming',
    status: row.status ?? '',
    createdBy: row.userId ?? '',
    channels: [{ type: channel, channelUId: row.channelUId ?? '' }],
    components: [{ cT: 'text', data: { text: masked ? '' : (row.text ?? '') } }],
    createdOn: new Date(Number(row.createdOn ?? 0)).toISOString(),
    lang: row.lang ?? '',
    chnl: channel,
    sessionId: row.sessionId ?? '',
    tags: parseTags(row.tags),
  };
  if (opts.includeTraceId && opts.traceId) out.traceId = opts.traceId;
  const asr = masked || !opts.includeAsrMetaData ? undefined : parseAsr(row.asr);
  if (asr !== undefined) out.asrMetaData = asr;
  // the voice extension also names the IVR call a message belongs to (the call inspector's key)
  if (opts.includeAsrMetaData && row.callId) out.callId = row.callId;
  return out;
}
