/**
 * What the turn loop records of one request for the call inspector (a `TurnTrace`), and the draft
 * it fills while the request runs: the time spent in the store, the agent, model calls and
 * rendering, the model calls and table writes the agent's ports made, and marks for what happened
 * (a wait document, a resumed turn, a retry after a store fault). Never the webhook token: the
 * request's parameters are copied field by field from the parsed request, without it.
 */
import type { AsrMeta, IntentDecision, RecognitionResult, TurnResult } from '../agent/index.js';
import type { WebhookRequest } from '../ivr/index.js';

/** What a request's trace is marked with besides its event. */
export type TraceMark =
  /** the answer was a wait document (the turn outlived its deadline) */
  | 'wait'
  /** the turn finished after its request got a wait document (the answer went out on a poll) */
  | 'late'
  /** a poll delivered an answer a turn committed earlier */
  | 'delivered'
  /** the turn was run again from its stored input: the instance that ran it stopped */
  | 'resumed'
  /** a retry document resubmitted the request after a store fault */
  | 'store_retry'
  /** a resubmission of a turn already answered got its answer again */
  | 'duplicate'
  /** the gateway closed a call that stopped sending turns */
  | 'idle';

export interface ModelCallTrace {
  connectionId: string;
  /** The node's place in the turn (`<dialog>.<node>`). */
  step?: string;
  latencyMs: number;
  inputTokens?: number;
  outputTokens?: number;
  /** ok; error (with the error's stable code); reused: kept from an earlier run of the same turn. */
  outcome: 'ok' | 'error' | 'reused';
  error?: string;
}

export interface TableWriteTrace {
  table: string;
  step?: string;
  latencyMs: number;
  outcome: 'ok' | 'error';
  error?: string;
}

export interface TurnTrace {
  callId: string;
  /** The turn the request submitted (the turn number of the document that sent it). */
  turn: number;
  /** When the request came (ms since epoch). */
  receivedAt: number;
  /** From arrival to the commit being sent (or the answer being ready when nothing is committed). */
  durationMs: number;
  timing: { storeMs: number; agentMs: number; modelMs: number; renderMs: number };
  /** The instance that answered (INSTANCE_ID). */
  instance: string;
  /** The call's language for this turn's answer (a language tag such as es-US). */
  lang?: string;
  /** The turn's event: start, input, noinput, nomatch, maxretries, continue, transfer, hangup, recording, poll. */
  event: string;
  marks: TraceMark[];
  /** The webhook request's parameters as read (never the token). */
  request: Record<string, string | number>;
  asr?: AsrMeta & { belowThreshold?: boolean };
  recognition?: Pick<RecognitionResult, 'intent' | 'score' | 'source' | 'rejection'> & { top: RecognitionResult['scores'] };
  /**
   * What the agent made of the recognition or of the answer to its question, and why, also in words
   * (`why`: "out of scope", "below threshold", "ambiguous between A and B", "A confirmed", "denied A").
   */
  decision?: IntentDecision & { why: string };
  /** A failed attempt and why (below the confidence threshold, no match, the browser's event). */
  nomatch?: NonNullable<TurnResult['failed']>;
  entities?: Record<string, unknown>;
  /** The dialog position before the turn and after it. */
  before?: { dialog: string | null; node: string | null };
  dialog?: string | null;
  node?: string | null;
  /** The rules that chose the next node. */
  rules?: NonNullable<TurnResult['rules']>;
  /** The nodes the turn ran through (the agent's trace). */
  path?: string[];
  modelCalls?: ModelCallTrace[];
  tableWrites?: TableWriteTrace[];
  transferResult?: string;
  /** The stored answer: its action and error code. */
  answer?: { action: string; error?: string };
  /** The document answered: its kind (ask, say, end, transfer, error, wait…) and, when kept, its XML. */
  document: { kind: string; xml?: string };
  /** An error met by the turn (its stable code). */
  error?: string;
}

/** A call's summary in the app's index of calls, as one turn leaves it. */
export interface CallSummaryUpdate {
  callId: string;
  from?: string;
  to?: string;
  startedAt: number;
  lastTurnAt: number;
  /** Turns answered so far (the session's turn number). */
  turns: number;
  lastEvent: string;
  node?: string;
  /** Set once the call ended: how. */
  ended?: 'completed' | 'hungup' | 'error';
  /** A transfer was answered in this turn (sticky in the summary). */
  transferred?: boolean;
  /** Something went wrong in this turn (sticky in the summary). */
  error?: boolean;
}

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
    return { storeMs: r(this.storeMs), agentMs: r(this.agentMs), modelMs: r(this.modelMs), renderMs: r(this.renderMs) };
  }
}
