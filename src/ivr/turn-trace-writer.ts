/**
 * Builds the turn loop's traces and hands them to the tracing port after the answer is settled: a
 * committed turn's trace once its commit landed (its document rendered before the commit, the
 * document the caller gets), a request no commit carried (a wait document, an answer delivered on
 * a poll, a duplicate) after it is answered. The port writes them best-effort, batched across
 * turns, outside the commit: handing one over never waits for the store.
 */
import type { TurnResult } from '../agent/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { TurnContext, TurnOutcome } from './turn-context.js';
import type { TurnTracePort } from './ivr-ports.js';
import type { TraceDraft } from './turn-trace.js';
import { committedTrace, uncommittedTrace, type BuiltTrace } from './turn-trace-builder.js';

export class TurnTraceWriter {
  constructor(private readonly traces: TurnTracePort) {}

  /** Where a trace comes from: the request, what it collected, and the tracing port's settings. */
  private source(ctx: TurnContext) {
    return { req: ctx.req, draft: ctx.trace!, instanceId: this.traces.instanceId, documents: this.traces.documents };
  }

  /** The committed turn's trace, its document rendered now (before the commit); `write` it once the commit landed. */
  committed(ctx: TurnContext, draft: TraceDraft, before: CallSession, next: CallSession, answer: AnswerSpec, result: TurnResult | null): BuiltTrace {
    const t = performance.now();
    const rendered = ctx.render!({ kind: 'answer', answer, session: next, issuedTurn: next.turn });
    draft.renderMs += performance.now() - t;
    draft.rendered = rendered;
    return committedTrace(this.source(ctx), { before, next, answer, result, rendered });
  }

  /** Hands a built trace to the port. */
  write(streamId: string, built: BuiltTrace): void {
    this.traces.write(streamId, built.trace, built.summary);
  }

  /**
   * The trace of a request whose answer no commit of its own carried: rendered now, handed to the
   * port after the answer.
   */
  uncommitted(ctx: TurnContext, outcome: TurnOutcome): TurnOutcome {
    const draft = ctx.trace!;
    if (draft.traced) return outcome;
    if (outcome.kind === 'answer' && outcome.answer.error === 'session_expired') return outcome;
    const t = performance.now();
    const rendered = ctx.render!(outcome);
    draft.renderMs += performance.now() - t;
    const { trace, summary } = uncommittedTrace(this.source(ctx), outcome, rendered);
    this.traces.write(ctx.streamId, trace, summary);
    return { ...outcome, rendered };
  }
}
