/** The call inspector's API shapes: the list's query, a call's summary, a turn's trace, the timeline. */
import { z } from 'zod';

export const OUTCOMES = ['completed', 'transferred', 'hungup', 'error', 'live'] as const;
export type CallOutcome = (typeof OUTCOMES)[number];

export const streamIdParams = z.object({ streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>') });
export const callParams = streamIdParams.extend({ callId: z.string().min(1).max(200) });

/** A time as ms since the epoch or an ISO 8601 date-time. */
const instant = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const n = /^\d{1,15}$/.test(v) ? Number(v) : Date.parse(v);
    if (Number.isFinite(n)) return n;
    ctx.addIssue({ code: 'custom', message: 'ms since the epoch or an ISO 8601 date-time' });
    return z.NEVER;
  });

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20).describe('calls per page (1-100, default 20)'),
    cursor: z.string().max(200).optional().describe('the nextCursor of the previous page'),
    from: z.string().max(200).optional().describe("only calls from this caller (the webhook's from)"),
    dateFrom: instant.optional().describe('only calls started at or after (ms or ISO 8601)'),
    dateTo: instant.optional().describe('only calls started at or before (ms or ISO 8601)'),
    outcome: z.enum(OUTCOMES).optional().describe('completed, transferred, hungup, error or live (not ended yet)'),
    hasError: flag.optional().describe('only calls where a turn met an error (true) or none did (false)'),
    minTurns: z.coerce.number().int().min(0).max(100_000).optional().describe('only calls with at least this many turns'),
  })
  .strict();
export type ListQuery = z.infer<typeof listQuery>;

export const feedQuery = z
  .object({
    callId: z.string().min(1).max(200).optional().describe("only this call's turns"),
    lastEventId: z.string().regex(/^\d{1,20}-\d{1,20}$/).optional().describe('resume after this event id (as the Last-Event-ID header)'),
  })
  .strict();

export const callSummary = z.object({
  callId: z.string(),
  from: z.string().optional(),
  to: z.string().optional(),
  startedAt: z.number().describe('ms since the epoch'),
  lastTurnAt: z.number().describe('ms since the epoch'),
  turns: z.number(),
  outcome: z.enum(OUTCOMES),
  hasError: z.boolean(),
  transferred: z.boolean(),
  lastEvent: z.string(),
  node: z.string().optional().describe('<dialog>.<node> the call is at'),
});
export type CallSummary = z.infer<typeof callSummary>;

export const callList = z.object({
  calls: z.array(callSummary),
  nextCursor: z.string().nullable().describe('pass as cursor for the next page; null at the end'),
});

const timing = z.object({ storeMs: z.number(), agentMs: z.number(), modelMs: z.number(), renderMs: z.number() });
export const turnTrace = z.object({
  callId: z.string(),
  turn: z.number(),
  receivedAt: z.number(),
  durationMs: z.number(),
  timing,
  instance: z.string(),
  lang: z.string().optional().describe("the call's language for the turn's answer, e.g. es-US"),
  event: z.string(),
  marks: z.array(z.enum(['wait', 'late', 'delivered', 'resumed', 'store_retry', 'duplicate', 'idle'])),
  request: z.record(z.string(), z.union([z.string(), z.number()])),
  asr: z.object({ confidence: z.string(), Inputmode: z.string(), interpretation: z.string(), utterance: z.string(), belowThreshold: z.boolean().optional() }).optional(),
  recognition: z
    .object({
      intent: z.string(),
      score: z.number(),
      source: z.string(),
      top: z.array(z.object({ intent: z.string(), score: z.number() })),
      rejection: z.enum(['out_of_scope', 'below_threshold']).optional().describe('why the recognizer answered None'),
    })
    .optional(),
  decision: z
    .object({
      outcome: z.enum(['accept', 'confirm', 'choose', 'reject']),
      reason: z.enum(['confident', 'grammar', 'confirmed', 'chosen', 'unsure', 'always', 'ambiguous', 'out_of_scope', 'below_threshold', 'denied']),
      intent: z.string().optional().describe('the intent accepted or asked about'),
      intents: z.array(z.string()).optional().describe('the two intents asked between, or the intents denied'),
      why: z.string().describe('the decision in words: "out of scope", "ambiguous between A and B", "denied A"…'),
    })
    .optional()
    .describe('what the agent made of the recognition, or of the answer to its question'),
  nomatch: z.object({ kind: z.enum(['noinput', 'nomatch']), reason: z.enum(['below_threshold', 'no_match', 'event']) }).optional(),
  entities: z.record(z.string(), z.unknown()).optional(),
  before: z.object({ dialog: z.string().nullable(), node: z.string().nullable() }).optional(),
  dialog: z.string().nullable().optional(),
  node: z.string().nullable().optional(),
  rules: z.array(z.object({ node: z.string(), rule: z.number(), goto: z.string() })).optional(),
  path: z.array(z.string()).optional(),
  modelCalls: z
    .array(z.object({ connectionId: z.string(), step: z.string().optional(), latencyMs: z.number(), inputTokens: z.number().optional(), outputTokens: z.number().optional(), outcome: z.enum(['ok', 'error', 'reused']), error: z.string().optional() }))
    .optional(),
  tableWrites: z.array(z.object({ table: z.string(), step: z.string().optional(), latencyMs: z.number(), outcome: z.enum(['ok', 'error']), error: z.string().optional() })).optional(),
  transferResult: z.string().optional(),
  answer: z.object({ action: z.string(), error: z.string().optional() }).optional(),
  document: z.object({ kind: z.string(), xml: z.string().optional() }),
  error: z.string().optional(),
});

export const callTimeline = z.object({ call: callSummary, turns: z.array(turnTrace) });
