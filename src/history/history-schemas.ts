/**
 * Shapes of conversation history: what the recorder accepts, the getMessages parameters (GET query,
 * POST body) with their coercions, and the answer. Query strings arrive as strings: booleans accept
 * only "true"/"false", numbers only integers.
 */
import { z } from 'zod';

/** The 25 channelType values the platform's messages carry. */
export const CHANNEL_TYPES = [
  'msteams',
  'twitter',
  'spark',
  'rtm',
  'facebook',
  'slack',
  'native',
  'email',
  'sms',
  'wfacebook',
  'ringcentral',
  'jabber',
  'yammer',
  'alexa',
  'twiliovoice',
  'telegram',
  'ivr',
  'ivrVoice',
  'assist',
  'line',
  'liveperson',
  'googleactions',
  'hangoutchat',
  'mattermost',
  'rcs',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const TASK_KINDS = ['Dialog', 'Alert', 'Action'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const MESSAGE_STATUSES = ['received', 'queued', 'in progress', 'delivered', 'pending'] as const;

export type HistoryVersion = 'v1' | 'v2';
/** Messages per page: default and maximum per version (the platform's page limits). */
export const LIMITS: Record<HistoryVersion, { default: number; max: number }> = {
  v1: { default: 20, max: 100 },
  v2: { default: 100, max: 10_000 },
};
export const MAX_SESSION_IDS = 100;
export const MAX_TAGS = 20;
/** The longest message text kept. */
export const MAX_TEXT = 100_000;

/** One message as the IVR webhook (or any channel) hands it to the recorder. */
export interface NewMessage {
  /** `ms-<uuid>`; recording the same id twice is a no-op. */
  id: string;
  /** The app's streamId (the history API answers it as `botId`). */
  streamId: string;
  /** The end user's id (createdBy). */
  userId: string;
  /** Further ids the userId filter must match (the callId and the `from` number for IVR). */
  identities?: string[];
  sessionId: string;
  callId?: string;
  type: 'incoming' | 'outgoing';
  /** Default: received (incoming), delivered (outgoing). */
  status?: (typeof MESSAGE_STATUSES)[number];
  text: string;
  /** channelType of the message; default `ivr`. */
  channel?: ChannelType;
  channelUId?: string;
  createdOn: Date | number;
  lang?: string;
  /** Kept 30 days, shown with includeTraceId. */
  traceId?: string;
  tags?: Record<string, string>;
  /** Default Dialog; v2 leaves out Alert and Action. */
  taskKind?: TaskKind;
  /** The message carries form input: its text is blanked unless includeSecureForm is true. */
  secureForm?: boolean;
  asrMetaData?: unknown;
}

const id200 = z.string().trim().min(1).max(200);

export const newMessageSchema = z.object({
  id: z.string().regex(/^ms-[0-9a-fA-F-]{36}$/, 'must be a message id ms-<uuid>'),
  streamId: id200,
  userId: id200,
  identities: z.array(z.string().max(200)).max(10).default([]),
  sessionId: id200,
  callId: id200.optional(),
  type: z.enum(['incoming', 'outgoing']),
  status: z.enum(MESSAGE_STATUSES).optional(),
  text: z.string().max(MAX_TEXT),
  channel: z.enum(CHANNEL_TYPES).default('ivr'),
  channelUId: z.string().max(200).default(''),
  createdOn: z
    .union([z.date(), z.number().finite().nonnegative()])
    .transform((d) => Math.floor(d instanceof Date ? d.getTime() : d)),
  lang: z.string().max(20).default('en'),
  traceId: z.string().max(200).optional(),
  tags: z
    .record(z.string().min(1).max(100), z.string().max(500))
    .refine((t) => Object.keys(t).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`)
    .optional(),
  taskKind: z.enum(TASK_KINDS).default('Dialog'),
  secureForm: z.boolean().optional(),
  asrMetaData: z.unknown().optional(),
});
export type ValidMessage = z.output<typeof newMessageSchema>;

// ---- request parameters ----

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
  .transform((v) => v === true || v === 'true');

const integer = (min: number, max: number, tooBig?: string) =>
  z
    .union([z.number().int(), z.string().regex(/^-?\d{1,15}$/, 'must be an integer')], {
      error: 'must be an integer',
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `must be at least ${min}`)
        .max(max, tooBig ?? `must be at most ${max}`),
    );

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z)?$/;
export interface ParsedDate {
  ms: number;
  dateOnly: boolean;
}
/** `yyyy-mm-dd` (a UTC day) or `yyyy-mm-ddThh:mm:ss.msZ` (ms optional); real calendar dates only. */
export function parseHistoryDate(v: string): ParsedDate | null {
  const m = DATE_RE.exec(v);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = m.slice(1);
  const t = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(ms.padEnd(3, '0')),
  );
  const back = new Date(t);
  if (
    back.getUTCFullYear() !== Number(y) ||
    back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d)
  )
    return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return { ms: t, dateOnly: m[4] === undefined };
}

const date = z.string({ error: 'must be a date string' }).transform((v, ctx) => {
  const p = parseHistoryDate(v);
  if (!p) {
    ctx.addIssue({ code: 'custom', message: 'must be yyyy-mm-dd or yyyy-mm-ddThh:mm:ss.msZ' });
    return z.NEVER;
  }
  return p;
});

const channelType = z.enum(CHANNEL_TYPES, { error: `must be one of ${CHANNEL_TYPES.join(', ')}` });
const tagValue = z.union([z.string().max(500), z.number(), z.boolean()]).transform(String);

/** The parameters both methods share; GET and POST differ in sessionId and tags. */
function commonShape(version: HistoryVersion) {
  const { max } = LIMITS[version];
  return {
    userId: id200.optional(),
    skip: integer(0, 1_000_000).optional(),
    offset: integer(0, 1_000_000).optional(),
    limit: integer(
      1,
      max,
      `must be at most ${max} for getMessages${version === 'v2' ? 'V2' : ''}`,
    ).optional(),
    channelType: channelType.optional(),
    dateFrom: date.optional(),
    dateTo: date.optional(),
    msgId: z.string().trim().min(1).max(100).optional(),
    direction: integer(-1_000_000, 1_000_000).optional(),
    forward: flag.optional(),
    includeTraceId: flag.optional(),
    /** Adds each voice message's asrMetaData (confidence, input mode…) and each IVR message's callId, an extension of this gateway. */
    includeAsrMetaData: flag.optional(),
    includeSecureForm:
      version === 'v2'
        ? z
            .union([z.boolean(), z.enum(['true', 'false'])], {
              error: (i) =>
                i.input === undefined
                  ? 'includeSecureForm is required for getMessagesV2'
                  : 'must be true or false',
            })
            .transform((v) => v === true || v === 'true')
        : flag.optional(),
    getAgentsInfo: flag.optional(),
    callId: id200.optional(),
  };
}

export function getQuerySchema(version: HistoryVersion) {
  return z.object({
    ...commonShape(version),
    userId: z
      .string({
        error: (i) =>
          i.input === undefined
            ? 'userId is required'
            : i.code === 'invalid_type'
              ? 'must be a string'
              : undefined,
      })
      .trim()
      .min(1)
      .max(200),
    sessionId: id200.optional(),
  });
}

export function postBodySchema(version: HistoryVersion) {
  return z.object({
    ...commonShape(version),
    sessionId: z
      .union([
        id200.transform((s) => [s]),
        z.array(id200).max(MAX_SESSION_IDS, `at most ${MAX_SESSION_IDS} session ids`),
      ])
      .optional(),
    tags: z
      .record(z.string().min(1).max(100), tagValue)
      .refine((t) => Object.keys(t).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`)
      .optional(),
  });
}

/** Validated parameters of either method (GET query or POST body), before the cross-field rules. */
export interface HistoryParams {
  userId?: string;
  skip?: number;
  offset?: number;
  limit?: number;
  channelType?: ChannelType;
  dateFrom?: ParsedDate;
  dateTo?: ParsedDate;
  msgId?: string;
  direction?: number;
  forward?: boolean;
  includeTraceId?: boolean;
  includeAsrMetaData?: boolean;
  /** Required on v2 (the schema refuses its absence). */
  includeSecureForm?: boolean;
  getAgentsInfo?: boolean;
  callId?: string;
  /** One id on GET; a list on POST. */
  sessionId?: string | string[];
  /** POST only: every given tag must match. */
  tags?: Record<string, string>;
}

// ---- answer ----

export const messageAnswer = z.object({
  _id: z.string(),
  botId: z.string(),
  type: z.enum(['incoming', 'outgoing']),
  status: z.string(),
  createdBy: z.string(),
  channels: z.array(z.object({ type: z.string(), channelUId: z.string() })),
  components: z.array(z.object({ cT: z.string(), data: z.object({ text: z.string() }) })),
  createdOn: z.string(),
  lang: z.string(),
  chnl: z.string(),
  sessionId: z.string(),
  tags: z.record(z.string(), z.string()),
  traceId: z.string().optional(),
  /** With includeAsrMetaData: a voice turn's input as the speech recognizer gave it (confidence, Inputmode, interpretation, utterance). */
  asrMetaData: z
    .object({
      confidence: z.string(),
      Inputmode: z.string(),
      interpretation: z.string(),
      utterance: z.string(),
    })
    .loose()
    .optional()
    .describe("with includeAsrMetaData: a caller's turn as the speech recognizer gave it"),
  /** With includeAsrMetaData: the IVR call the message belongs to (its id in the call inspector). */
  callId: z.string().optional(),
});
export type MessageAnswer = z.infer<typeof messageAnswer>;

export const historyAnswer = z.object({
  total: z.number(),
  moreAvailable: z.boolean(),
  icon: z.string(),
  messages: z.array(messageAnswer),
  agentsInfo: z.array(z.unknown()).optional(),
});
export type HistoryAnswer = z.infer<typeof historyAnswer>;
