/** The call inspector's API shapes: the list's query, a call's summary, a turn's trace, the timeline. */
import { z } from 'zod';
import { callSummaryUpdateSchema, turnTraceSchema as turnTrace } from '../tracing/index.js';

export const OUTCOMES = ['completed', 'transferred', 'hungup', 'error', 'live'] as const;
export type CallOutcome = (typeof OUTCOMES)[number];

export const streamIdParams = z.object({
  streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>'),
});
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
    outcome: z
      .enum(OUTCOMES)
      .optional()
      .describe('completed, transferred, hungup, error or live (not ended yet)'),
    hasError: flag.optional().describe('only calls where a turn met an error (true) or none did (false)'),
    minTurns: z.coerce
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .describe('only calls with at least this many turns'),
  })
  .strict();
export type ListQuery = z.infer<typeof listQuery>;

export const feedQuery = z
  .object({
    callId: z.string().min(1).max(200).optional().describe("only this call's turns"),
    lastEventId: z
      .string()
      .regex(/^\d{1,20}-\d{1,20}$/)
      .optional()
      .describe('resume after this event id (as the Last-Event-ID header)'),
  })
  .strict();

/** A call as the list shows it: what its turns left in the summary, with the sticky flags read as an outcome. */
export const callSummary = callSummaryUpdateSchema.omit({ ended: true, error: true }).extend({
  outcome: z.enum(OUTCOMES),
  hasError: z.boolean(),
  transferred: z.boolean(),
  lang: z
    .string()
    .optional()
    .describe("the call's language as its last turn left it (a language tag such as es-US)"),
});
export type CallSummary = z.infer<typeof callSummary>;

export const callList = z.object({
  calls: z.array(callSummary),
  nextCursor: z.string().nullable().describe('pass as cursor for the next page; null at the end'),
});

export const callTimeline = z.object({ call: callSummary, turns: z.array(turnTrace) });

/**
 * The data of one `turn` event of the live feed: the trace without its document's XML (or, for a
 * trace no longer kept, its turn and arrival only), and the call's summary as the turn left it.
 */
export const feedTurn = z.object({
  callId: z.string(),
  trace: z.union([
    turnTrace.extend({ document: z.object({ kind: z.string() }) }),
    z
      .object({ callId: z.string(), turn: z.number(), receivedAt: z.number() })
      .describe('a trace no longer kept (past CALL_TRACE_MAX_TURNS, or expired)'),
  ]),
  summary: callSummaryUpdateSchema,
});
