/**
 * What one request collects for its trace, handed to each step of the turn loop: the time spent in
 * the store, the agent and rendering, marks (a resumed turn, a late one), the model calls and table
 * writes the agent's effects note (its TraceDraft), and the trace itself, handed to the tracing
 * port once the answer is settled: a committed turn's once its commit landed (built just before the
 * commit is sent, so its duration runs to there), a request no commit of its own carried (a wait
 * document, an answer delivered on a poll, a duplicate) when it is answered. The port writes them
 * best-effort, batched across turns, outside the commit: handing one over never waits for the
 * store. With tracing off (no port, or no renderer) it collects nothing and the steps run the same.
 */
import type { TurnResult } from '../agent/index.js';
import type {
  AnswerSpec,
  CallSession,
  RenderedDocument,
  TurnContext,
  TurnOutcome,
  WebhookRequest,
} from '../ivr/index.js';
import { TraceDraft, type TraceMark, type TurnTracePort } from './turn-trace.js';
import { committedTrace, uncommittedTrace, type BuiltTrace, type TraceSource } from './turn-trace-builder.js';

/** A committed turn as its trace tells it (`before` holds the pending input). */
export interface CommittedTurn {
  before: CallSession;
  next: CallSession;
  answer: AnswerSpec;
  result: TurnResult | null;
  rendered: RenderedDocument | undefined;
}

export class TurnTraceCollector {
  /** What the request collects, where the agent's effects note their model calls and table writes (undefined: tracing off). */
  readonly draft: TraceDraft | undefined;

  constructor(
    private readonly port: TurnTracePort | undefined,
    ctx: Pick<TurnContext, 'req' | 'render'>,
  ) {
    this.draft = port && ctx.render ? new TraceDraft(Date.now(), ctx.req) : undefined;
  }

  /** Times a store call. */
  store<T>(work: Promise<T>): Promise<T> {
    return this.draft ? this.draft.store(work) : work;
  }

  mark(mark: TraceMark): void {
    this.draft?.marks.add(mark);
  }

  /** The turn outlived its deadline: its request gets a wait document, its trace the mark `late`. */
  late(): void {
    if (this.draft) this.draft.late = true;
  }

  /**
   * Starts timing the agent's step. `stop` answers the step's elapsed ms and counts it as agent
   * time less the model's and the store's time within it.
   */
  agentTimer(): { stop(): number } {
    const started = performance.now();
    const draft = this.draft;
    const storeBefore = draft?.storeMs ?? 0;
    const modelBefore = draft?.modelMs ?? 0;
    return {
      stop: () => {
        const elapsed = performance.now() - started;
        if (draft)
          draft.agentMs += Math.max(
            0,
            elapsed - (draft.modelMs - modelBefore) - (draft.storeMs - storeBefore),
          );
        return elapsed;
      },
    };
  }

  /** Times rendering a document. */
  rendering(render: () => RenderedDocument): RenderedDocument {
    const t = performance.now();
    const rendered = render();
    if (this.draft) this.draft.renderMs += performance.now() - t;
    return rendered;
  }

  /** A committed turn's trace, built before its commit is sent; `write` it once the commit landed. */
  committing(req: WebhookRequest, turn: CommittedTurn): BuiltTrace | undefined {
    if (!this.draft || !turn.rendered) return undefined;
    return committedTrace(this.source(req), { ...turn, rendered: turn.rendered });
  }

  /** Hands a committed turn's trace to the port. */
  write(streamId: string, built: BuiltTrace | undefined): void {
    if (built) this.port!.write(streamId, built.trace, built.summary);
  }

  /** Hands the trace of a request no commit of its own carried to the port (`rendered`: what it answers). */
  uncommitted(streamId: string, outcome: TurnOutcome, rendered: RenderedDocument): void {
    if (!this.draft) return;
    const { trace, summary } = uncommittedTrace(this.source(this.draft.req), outcome, rendered);
    this.port!.write(streamId, trace, summary);
  }

  private source(req: WebhookRequest): TraceSource {
    return { req, draft: this.draft!, instanceId: this.port!.instanceId, documents: this.port!.documents };
  }
}
