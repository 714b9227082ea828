/**
 * Writes the turn loop's traces through the tracing port: a committed turn's trace goes with its
 * commit (its document rendered first), a request no commit carried writes its own after it is
 * answered.
 */
import type { TurnResult } from '../agent/index.js';
import type { Logger } from '../platform/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { TraceWrites } from './call-session-repository.js';
import type { TurnContext, TurnOutcome } from './turn-context.js';
import type { TurnTracePort } from './ivr-ports.js';
import type { TraceDraft } from './turn-trace.js';
import { committedTrace, uncommittedTrace } from './turn-trace-builder.js';

export class TurnTraceWriter {
  constructor(
    private readonly traces: TurnTracePort,
    private readonly logger: Logger,
  ) {}

  /** Where a trace comes from: the request, what it collected, and the tracing port's settings. */
  private source(ctx: TurnContext) {
    return { req: ctx.req, draft: ctx.trace!, instanceId: this.traces.instanceId, documents: this.traces.documents };
  }

  /** The committed turn's trace and its writes (the document rendered now, before the commit). */
  committed(ctx: TurnContext, draft: TraceDraft, before: CallSession, next: CallSession, answer: AnswerSpec, result: TurnResult | null): TraceWrites {
    const t = performance.now();
    const rendered = ctx.render!({ kind: 'answer', answer, session: next, issuedTurn: next.turn });
    draft.renderMs += performance.now() - t;
    draft.rendered = rendered;
    const { trace, summary } = committedTrace(this.source(ctx), { before, next, answer, result, rendered });
    return this.traces.prepare(ctx.streamId, trace, summary);
  }

  /**
   * The trace of a request whose answer no commit of its own carried (a wait document, an answer
   * delivered on a poll, a duplicate): written on its own, after the answer is rendered. A failure
   * to write it is logged; the caller still gets the answer.
   */
  async uncommitted(ctx: TurnContext, outcome: TurnOutcome): Promise<TurnOutcome> {
    const draft = ctx.trace!;
    if (draft.traced) return outcome;
    if (outcome.kind === 'answer' && outcome.answer.error === 'session_expired') return outcome;
    const t = performance.now();
    const rendered = ctx.render!(outcome);
    draft.renderMs += performance.now() - t;
    const { trace, summary } = uncommittedTrace(this.source(ctx), outcome, rendered);
    try {
      await draft.store(this.traces.record(ctx.streamId, trace, summary));
    } catch (err) {
      this.logger.warn({ err, callId: ctx.req.callId }, 'turn trace not written');
    }
    return { ...outcome, rendered };
  }
}
