/**
 * Reads the webhook's merged query and body parameters leniently, as VXML browsers send them:
 * numbers as "2.0", repeated keys, JSON values of any type. Nothing here trusts the input's types.
 */
export const WEBHOOK_EVENTS = [
  'noinput',
  'nomatch',
  'maxretries',
  'continue',
  'transfer',
  'hangup',
  'poll',
  'retry',
  'recording',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookRequest {
  token?: string;
  callId?: string;
  message: string;
  from?: string;
  to?: string;
  appRoot?: string;
  /** The turn number of the document that submitted (undefined on a call's first request). */
  turn?: number;
  event?: WebhookEvent;
  transferResult?: string;
  confidence?: string;
  inputmode?: string;
  interpretation?: string;
  utterance?: string;
  nlsml?: string;
  /** event=recording: the recording's duration in ms, as the browser reports it (`<record>` shadow). */
  recording?: string;
  /** The call's language as the customer's root document gives it (`language` or `lang`, e.g. es-US). */
  language?: string;
  /** How many times a retry document resubmitted this request. */
  retry: number;
  /** When the turn's first store fault happened (ms since epoch), carried by retry documents. */
  retrySince?: number;
}

const MAX_TEXT = 4_000;
const MAX_ID = 200;

/** The first string-like value of a parameter (arrays: first element; numbers/booleans: String). */
export function param(params: Record<string, unknown>, name: string, max = MAX_TEXT): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(params, name)) return undefined;
  let v = params[name];
  if (Array.isArray(v)) v = v[0];
  if (typeof v === 'number' || typeof v === 'boolean') v = String(v);
  if (typeof v !== 'string') return undefined;
  return v.length > max ? v.slice(0, max) : v;
}

/** Integers as browsers send them: "2", "2.0", " 2 ". */
export function lenientInt(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  if (!/^\d{1,7}(\.0*)?$/.test(t)) return undefined;
  return Math.trunc(Number(t));
}

/** A time in ms since the epoch, as a retry document sends it back ("1795000000123", "1795000000123.0"). */
function epochMs(v: string | undefined): { retrySince?: number } {
  const t = v?.trim();
  if (!t || !/^\d{1,15}(\.0*)?$/.test(t)) return {};
  return { retrySince: Math.trunc(Number(t)) };
}

/** A language tag as sent (`es`, `es-US`, `es_MX`); anything else is dropped. */
function languageParam(v: string | undefined): { language?: string } {
  const t = v?.trim().replace('_', '-');
  return t && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(t) ? { language: t } : {};
}

/** Strips a browser's quoting/undefined markers ("undefined", "null") from optional values. */
const clean = (v: string | undefined): string | undefined =>
  v === undefined || v === 'undefined' || v === 'null' ? undefined : v;

export function readWebhookRequest(params: Record<string, unknown>): WebhookRequest {
  const ev = clean(param(params, 'event', 40))
    ?.trim()
    .toLowerCase();
  const callId = clean(param(params, 'callId', MAX_ID))?.trim();
  return {
    token: param(params, 'token', 8192),
    callId: callId ? callId : undefined,
    message: clean(param(params, 'message')) ?? '',
    from: clean(param(params, 'from', MAX_ID)) ?? clean(param(params, 'ivr_ani', MAX_ID)),
    to: clean(param(params, 'to', MAX_ID)) ?? clean(param(params, 'ivr_dnis', MAX_ID)),
    appRoot: clean(param(params, 'app_root', 500)),
    turn: lenientInt(clean(param(params, 'turn', 20))),
    event: (WEBHOOK_EVENTS as readonly string[]).includes(ev ?? '') ? (ev as WebhookEvent) : undefined,
    transferResult: clean(param(params, 'transferResult', 200)),
    confidence: clean(param(params, 'confidence', 40)),
    inputmode: clean(param(params, 'inputmode', 20)),
    interpretation: clean(param(params, 'interpretation')),
    utterance: clean(param(params, 'utterance')),
    nlsml: clean(param(params, 'nlsml', 20_000)) ?? clean(param(params, 'lastresult', 20_000)),
    recording: clean(param(params, 'recording', 20)),
    ...languageParam(clean(param(params, 'language', 40)) ?? clean(param(params, 'lang', 40))),
    retry: lenientInt(clean(param(params, 'retry', 10))) ?? 0,
    ...epochMs(clean(param(params, 'retrySince', 20))),
  };
}
