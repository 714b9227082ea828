/**
 * Builds a request's trace and its call-summary update from what the turn loop collected (pure:
 * the turn loop renders, writes and times; this only shapes). See docs/inspector.md.
 */
import { describeDecision, type TurnResult } from '../agent/index.js';
import type { AnswerSpec, CallSession, WebhookRequest } from '../ivr/index.js';
import {
  redactedDocument,
  traceParams,
  type CallSummaryUpdate,
  type TraceDraft,
  type TraceMark,
  type TurnTrace,
} from './turn-trace.js';

/** What every trace takes from the request and the tracing port. */
export interface TraceSource {
  req: WebhookRequest;
  draft: TraceDraft;
  instanceId: string;
  /** Whether the trace keeps the document's XML. */
  documents: boolean;
}

export interface BuiltTrace {
  trace: TurnTrace;
  summary: CallSummaryUpdate;
}

const nodeOf = (
  s: { dialog?: string | null; node?: string | null } | null | undefined,
): string | undefined => (s?.dialog && s.node ? `${s.dialog}.${s.node}` : undefined);

function endedHow(next: CallSession, input: string, answer: AnswerSpec): CallSummaryUpdate['ended'] {
  if (!next.ended) return undefined;
  if (answer.action === 'error') return 'error';
  return input === 'hangup' ? 'hungup' : 'completed';
}

function baseTrace(
  src: TraceSource,
  turn: number,
  event: string,
  marks: TraceMark[],
  rendered: { kind: string; xml: string },
): TurnTrace {
  const { draft } = src;
  const trace: TurnTrace = {
    callId: src.req.callId!,
    turn,
    receivedAt: draft.receivedAt,
    durationMs: Math.round(draft.elapsedMs),
    timing: draft.timing(),
    instance: src.instanceId,
    event,
    marks,
    request: traceParams(src.req),
    document: src.documents
      ? { kind: rendered.kind, xml: redactedDocument(rendered.xml) }
      : { kind: rendered.kind },
  };
  if (draft.modelCalls.length) trace.modelCalls = draft.modelCalls.slice();
  if (draft.tableWrites.length) trace.tableWrites = draft.tableWrites.slice();
  return trace;
}

function summaryOf(s: CallSession, lastEvent: string, extra: Partial<CallSummaryUpdate>): CallSummaryUpdate {
  return {
    callId: s.callId,
    ...(s.from ? { from: s.from } : {}),
    ...(s.to ? { to: s.to } : {}),
    startedAt: s.createdOn,
    lastTurnAt: Date.now(),
    turns: s.turn,
    lastEvent,
    ...extra,
  };
}

/** The trace of a turn the agent ran and its commit carries (`before` holds the pending input). */
export function committedTrace(
  src: TraceSource,
  turn: {
    before: CallSession;
    next: CallSession;
    answer: AnswerSpec;
    result: TurnResult | null;
    rendered: { kind: string; xml: string };
  },
): BuiltTrace {
  const { before, next, answer, result } = turn;
  const pending = before.pending!;
  const input = pending.input;
  const marks = new Set(src.draft.marks);
  if (src.draft.late) marks.add('late');
  const trace = baseTrace(
    src,
    pending.turn,
    input.kind === 'start' ? 'start' : pending.event,
    [...marks],
    turn.rendered,
  );
  if (input.kind === 'utterance' && input.asr)
    trace.asr = { ...input.asr, ...(input.belowThreshold ? { belowThreshold: true } : {}) };
  if (input.kind === 'transfer') trace.transferResult = input.result;
  trace.before = { dialog: before.state?.dialog ?? null, node: before.state?.node ?? null };
  if (answer.language) trace.lang = answer.language;
  trace.answer = answer.error ? { action: answer.action, error: answer.error } : { action: answer.action };
  if (result) {
    if (result.recognition) {
      const r = result.recognition;
      trace.recognition = {
        intent: r.intent,
        score: r.score,
        source: r.source,
        top: r.scores.slice(0, 3),
        ...(r.rejection ? { rejection: r.rejection } : {}),
      };
    }
    if (result.decision) trace.decision = { ...result.decision, why: describeDecision(result.decision) };
    if (result.fallback) trace.fallback = result.fallback;
    if (result.failed) trace.nomatch = result.failed;
    if (Object.keys(result.state.entities).length) trace.entities = result.state.entities;
    trace.dialog = result.state.dialog;
    trace.node = result.state.node;
    if (result.rules) trace.rules = result.rules;
    if (result.trace.length) trace.path = result.trace;
  }
  if (answer.error) trace.error = answer.error;
  const failedEffect =
    src.draft.modelCalls.some((m) => m.outcome === 'error') ||
    src.draft.tableWrites.some((w) => w.outcome === 'error');
  const node = nodeOf(result?.state);
  const ended = endedHow(next, input.kind, answer);
  const summary = summaryOf(next, pending.event, {
    ...(node ? { node } : {}),
    ...(answer.language ? { lang: answer.language } : {}),
    ...(ended ? { ended } : {}),
    ...(answer.action === 'transfer' ? { transferred: true } : {}),
    ...(answer.error || failedEffect || marks.has('store_retry') ? { error: true } : {}),
  });
  return { trace, summary };
}

/**
 * The trace of a request whose answer no commit of its own carried: a wait document (`wait`), an
 * answer delivered on a poll (`delivered`), a duplicate.
 */
export function uncommittedTrace(
  src: TraceSource,
  outcome: { kind: 'answer' | 'wait'; session: CallSession; turn?: number },
  rendered: { kind: string; xml: string },
): BuiltTrace {
  const marks = new Set(src.draft.marks);
  const req = src.req;
  if (outcome.kind === 'wait') marks.add('wait');
  else if (req.event === 'poll') marks.add('delivered');
  else marks.add('duplicate');
  const turn = outcome.kind === 'wait' ? outcome.turn! : (req.turn ?? 0);
  const event = req.event ?? (turn === 0 ? 'start' : 'input');
  const node = nodeOf(outcome.session.state);
  return {
    trace: baseTrace(src, turn, event, [...marks], rendered),
    summary: summaryOf(outcome.session, event, node ? { node } : {}),
  };
}
