/**
 * What the turn loop records of one request for the call inspector (a `TurnTrace`), and the draft
 * it fills while the request runs: the time spent in the store, the agent, model calls and
 * rendering, the model calls and table writes the agent's ports made, and marks for what happened
 * (a wait document, a resumed turn, a retry after a store fault). Never the webhook token: the
 * request's parameters are copied field by field from the parsed request, without it.
 */
import { z } from 'zod';
import type { WebhookRequest } from '../ivr/index.js';

/** What a request's trace is marked with besides its event (see TurnTrace.marks). */
export const TRACE_MARKS = [
  /** the answer was a wait document (the turn outlived its deadline) */
  'wait',
  /** the turn finished after its request got a wait document (the answer went out on a poll) */
  'late',
  /** a poll delivered an answer a turn committed earlier */
  'delivered',
  /** the turn was run again from its stored input: the instance that ran it stopped */
  'resumed',
  /** a retry document resubmitted the request after a store fault */
  'store_retry',
  /** a resubmission of a turn already answered got its answer again */
  'duplicate',
  /** the gateway closed a call that stopped sending turns */
  'idle',
] as const;
export type TraceMark = (typeof TRACE_MARKS)[number];

export const modelCallTraceSchema = z.object({
  connectionId: z.string(),
  step: z.string().optional().describe("the node's place in the turn (<dialog>.<node>)"),
  latencyMs: z.number(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  outcome: z
    .enum(['ok', 'error', 'reused'])
    .describe("ok; error (with the error's stable code); reused: kept from an earlier run of the same turn"),
  error: z.string().optional(),
});
export type ModelCallTrace = z.infer<typeof modelCallTraceSchema>;

export const tableWriteTraceSchema = z.object({
  table: z.string(),
  step: z.string().optional(),
  latencyMs: z.number(),
  outcome: z.enum(['ok', 'error']),
  error: z.string().optional(),
});
export type TableWriteTrace = z.infer<typeof tableWriteTraceSchema>;

const position = z.object({ dialog: z.string().nullable(), node: z.string().nullable() });

/**
 * The trace of one request, declared once: the TypeScript type is inferred from it, the inspector's
 * answers reuse it, and the console's types are generated from those answers (npm run api:types).
 * The agent's types it copies (AsrMeta, RecognitionResult, IntentDecision, TurnResult) must fit it,
 * or the trace builder does not compile.
 */
export const turnTraceSchema = z.object({
  callId: z.string(),
  turn: z.number().describe('the turn the request submitted (the turn number of the document that sent it)'),
  receivedAt: z.number().describe('when the request came (ms since the epoch)'),
  durationMs: z
    .number()
    .describe('from arrival to the commit being sent (or the answer being ready when nothing is committed)'),
  timing: z.object({ storeMs: z.number(), agentMs: z.number(), modelMs: z.number(), renderMs: z.number() }),
  instance: z.string().describe('the instance that answered (INSTANCE_ID)'),
  lang: z.string().optional().describe("the call's language for the turn's answer, e.g. es-US"),
  event: z
    .string()
    .describe(
      "the turn's event: start, input, noinput, nomatch, maxretries, continue, transfer, hangup, recording, poll",
    ),
  marks: z.array(z.enum(TRACE_MARKS)),
  request: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .describe("the webhook request's parameters as read (never the token)"),
  asr: z
    .object({
      confidence: z.string(),
      Inputmode: z.string(),
      interpretation: z.string(),
      utterance: z.string(),
      belowThreshold: z.boolean().optional(),
    })
    .optional(),
  recognition: z
    .object({
      intent: z.string(),
      score: z.number(),
      source: z.enum(['grammar', 'nlu']),
      top: z.array(z.object({ intent: z.string(), score: z.number() })),
      rejection: z
        .enum(['out_of_scope', 'below_threshold'])
        .optional()
        .describe('why the recognizer answered None'),
    })
    .optional(),
  decision: z
    .object({
      outcome: z.enum(['accept', 'confirm', 'choose', 'reject']),
      reason: z.enum([
        'confident',
        'grammar',
        'confirmed',
        'chosen',
        'unsure',
        'always',
        'ambiguous',
        'out_of_scope',
        'below_threshold',
        'denied',
      ]),
      intent: z.string().optional().describe('the intent accepted or asked about'),
      intents: z
        .array(z.string())
        .optional()
        .describe('the two intents asked between, or the intents denied'),
      why: z
        .string()
        .describe('the decision in words: "out of scope", "ambiguous between A and B", "denied A"…'),
    })
    .optional()
    .describe('what the agent made of the recognition, or of the answer to its question'),
  fallback: z
    .object({ reason: z.enum(['out_of_scope', 'below_threshold', 'no_dialog']) })
    .optional()
    .describe(
      "set when the turn started the agent's fallback dialog, and why: the recognizer answered None (out of scope, or below the threshold), or the intent accepted has no dialog",
    ),
  nomatch: z
    .object({
      kind: z.enum(['noinput', 'nomatch']),
      reason: z.enum(['below_threshold', 'no_match', 'event']),
    })
    .optional()
    .describe("a failed attempt and why (below the confidence threshold, no match, the browser's event)"),
  entities: z.record(z.string(), z.unknown()).optional(),
  before: position.optional().describe('the dialog position before the turn'),
  dialog: z.string().nullable().optional(),
  node: z.string().nullable().optional(),
  rules: z
    .array(z.object({ node: z.string(), rule: z.number(), goto: z.string() }))
    .optional()
    .describe('the rules that chose the next node'),
  path: z.array(z.string()).optional().describe("the nodes the turn ran through (the agent's trace)"),
  modelCalls: z.array(modelCallTraceSchema).optional(),
  tableWrites: z.array(tableWriteTraceSchema).optional(),
  transferResult: z.string().optional(),
  answer: z
    .object({ action: z.string(), error: z.string().optional() })
    .optional()
    .describe('the stored answer: its action and error code'),
  document: z
    .object({ kind: z.string(), xml: z.string().optional() })
    .describe(
      'the document answered: its kind (ask, say, end, transfer, error, wait…) and, when kept (CALL_TRACE_DOCUMENTS), its XML (never in the feed)',
    ),
  error: z.string().optional().describe('an error met by the turn (its stable code)'),
});
export type TurnTrace = z.infer<typeof turnTraceSchema>;

/** A call's summary in the app's index of calls, as one turn leaves it (the live feed carries it). */
export const callSummaryUpdateSchema = z.object({
  callId: z.string(),
  from: z.string().optional(),
  to: z.string().optional(),
  startedAt: z.number().describe('ms since the epoch'),
  lastTurnAt: z.number().describe('ms since the epoch'),
  turns: z.number().describe("turns answered so far (the session's turn number)"),
  lastEvent: z.string(),
  node: z.string().optional().describe('<dialog>.<node> the call is at'),
  lang: z
    .string()
    .optional()
    .describe("the call's language after this turn (a language tag such as es-US; it can change mid-call)"),
  ended: z.enum(['completed', 'hungup', 'error']).optional().describe('set once the call ended: how'),
  transferred: z
    .boolean()
    .optional()
    .describe('a transfer was answered in this turn (sticky in the summary)'),
  error: z.boolean().optional().describe('something went wrong in this turn (sticky in the summary)'),
});
export type CallSummaryUpdate = z.infer<typeof callSummaryUpdateSchema>;

/**
 * Where the turn loop records a trace of every request (the call inspector). Traces are
 * observability data: `write` hands one over after the answer is settled and never waits for the
 * store; the port writes them best-effort, batched across turns, outside the turn's commit.
 */
export interface TurnTracePort {
  /** The instance that answers, as traces name it. */
  readonly instanceId: string;
  /** Whether traces keep the document's XML. */
  readonly documents: boolean;
  write(streamId: string, trace: TurnTrace, summary: CallSummaryUpdate): void;
}

/** The request's parameters for a trace: every field read from the webhook request except the token. */
export function traceParams(req: WebhookRequest): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(req)) {
    if (k === 'token' || v === undefined || v === '') continue;
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  }
  return out;
}

/**
 * A document as traces keep it: the webhook token every submit URL carries (`token=` in the query)
 * replaced by `redacted`, so a trace never holds a credential. (A stored copy for reading; the
 * caller gets the document as rendered.)
 */
export function redactedDocument(xml: string): string {
  return xml.replace(/([?&]|&amp;)token=[^"'&<>\s]*/g, '$1token=redacted');
}

/** What one request collects for its trace while it runs. */
export class TraceDraft {
  readonly started = performance.now();
  storeMs = 0;
  modelMs = 0;
  agentMs = 0;
  renderMs = 0;
  readonly marks = new Set<TraceMark>();
  readonly modelCalls: ModelCallTrace[] = [];
  readonly tableWrites: TableWriteTrace[] = [];
  error: string | undefined;
  /** The turn outlived its deadline (its request got a wait document). */
  late = false;

  constructor(
    readonly receivedAt: number,
    readonly req: WebhookRequest,
  ) {
    if (req.retry > 0) this.marks.add('store_retry');
  }

  /** Times a store call (added to storeMs). */
  async store<T>(work: Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await work;
    } finally {
      this.storeMs += performance.now() - t;
    }
  }

  get elapsedMs(): number {
    return performance.now() - this.started;
  }

  timing(): TurnTrace['timing'] {
    const r = (n: number) => Math.round(n * 10) / 10;
    return {
      storeMs: r(this.storeMs),
      agentMs: r(this.agentMs),
      modelMs: r(this.modelMs),
      renderMs: r(this.renderMs),
    };
  }
}
