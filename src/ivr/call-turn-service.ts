/**
 * The turn loop of one webhook request, one function per step, in the order a turn takes them:
 * 1. lock and read (`TurnClaims.lockAndRead`, turn-claims.ts): the call's lock taken and its
 *    session read in one round trip; a request that finds the call locked waits for the store's
 *    notice of the release (not by polling), a duplicate gets its stored answer without running
 *    the agent, and a poll watches the pending turn (its answer when ready, the turn taken over
 *    when its owner stopped);
 * 2. run (`run`): the agent, its effects once per turn (turn-effects.ts), under the turn deadline
 *    (`underDeadline`: a wait document when it is late; the answer is delivered exactly once on a
 *    later poll);
 * 3. render (`render`): the answer's document;
 * 4. commit (`commit`): the turn's history and the session, the lock released: in one step where
 *    the store allows it (memory, a single Redis node), else history first (a Redis Cluster);
 * 5. answer (`answer`): what the request gets; its trace handed over.
 * Each step takes the request's TurnTraceCollector, which collects the trace (nothing when off).
 */
import { runTurn, type TurnResult } from '../agent/index.js';
import { AppError, activeTraceId, type Logger, type Metrics } from '../platform/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { CallSessionRepository } from './call-session-repository.js';
import type { IvrPorts } from './ivr-ports.js';
import { commitWithHistory, turnMessages } from './turn-commit.js';
import { languageResponses } from './ivr-languages.js';
import { effectPorts, type TurnJournal } from './turn-effects.js';
import { agentStepSpan, historyWriteSpan, turnSpan, TurnTraceCollector } from '../tracing/index.js';
import type { RenderedDocument, TurnContext, TurnOutcome } from './turn-context.js';
import { storedAnswer, TurnClaims, type HeldTurn } from './turn-claims.js';

export { messageId } from './turn-commit.js';
export type { RenderedDocument, TurnContext, TurnOutcome } from './turn-context.js';

/** The last node a turn ran: its trace lists nodes as `<dialog>.<node>`, with marks (`!…`, `#…`) between them. */
const lastNode = (trace: readonly string[]): string | undefined =>
  trace.findLast((t) => !t.startsWith('!') && !t.startsWith('#'));

const toAnswer = (r: TurnResult): AnswerSpec => ({
  action: r.error ? 'error' : r.action,
  prompt: r.prompt,
  ...(lastNode(r.trace) ? { node: lastNode(r.trace) } : {}),
  ...(r.await ? { await: r.await } : {}),
  ...(r.overrides ? { overrides: r.overrides } : {}),
  ...(r.transfer ? { transfer: r.transfer } : {}),
  ...(r.error ? { error: r.error.code } : {}),
  language: r.language,
});

export class CallTurnService {
  /** Step 1, lock and read (turn-claims.ts). */
  private readonly claims: TurnClaims;

  constructor(
    private readonly sessions: CallSessionRepository,
    private readonly ports: IvrPorts,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    /** The clock of call activity (idle expiry counts from it). */
    private readonly now: () => number = Date.now,
  ) {
    this.claims = new TurnClaims(sessions, ports.lifecycle, logger, metrics, now);
  }

  /** One webhook request: its turn, then its answer. */
  handle(ctx: TurnContext): Promise<TurnOutcome> {
    const trace = new TurnTraceCollector(this.ports.traces, ctx);
    return turnSpan(
      ctx.streamId,
      ctx.req,
      async () => this.answer(ctx, trace, await this.turn(ctx, trace)),
      (o) => (o.kind === 'answer' ? o.answer.action : 'wait'),
    );
  }

  /**
   * The request's turn: lock and read, then run, render and commit. A hang-up without a turn (a
   * customer root reports the browser's hang-up) ends the call at its current turn; a turn in
   * flight may commit first and answer it from its own answer: then once more, at the next turn.
   */
  private async turn(ctx: TurnContext, trace: TurnTraceCollector): Promise<TurnOutcome> {
    if (!(ctx.req.event === 'hangup' && ctx.req.turn === undefined)) return this.submitted(ctx, trace);
    let outcome: TurnOutcome | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const session = await this.sessions.load(ctx.streamId, ctx.req.callId!);
      if (!session) return this.claims.expired(ctx);
      if (session.ended && session.last) return storedAnswer(session);
      outcome = await this.submitted({ ...ctx, req: { ...ctx.req, turn: session.turn } }, trace);
      if (outcome.kind === 'wait' || outcome.session.ended) return outcome;
    }
    return outcome!;
  }

  /** The submitted turn: what lock and read found, else the turn run under the deadline. */
  private async submitted(ctx: TurnContext, trace: TurnTraceCollector): Promise<TurnOutcome> {
    const claim = await this.claims.lockAndRead(ctx, trace);
    return 'outcome' in claim ? claim.outcome : this.underDeadline(ctx, trace, claim.held);
  }

  // ---- 2. to 4. run, render and commit, under the deadline ---------------------------------------

  /**
   * Runs, renders and commits the held turn; past the deadline the request gets a wait document
   * while the turn goes on. A new input is stored first then, before the wait document goes out (or
   * earlier, with the first effect it keeps: a model answer), so that the poll which follows can
   * resume the turn if this process dies; when the lock is gone by then, the input is kept as
   * another waiter keeps it. (A turn that dies before either fails the caller's request instead;
   * the browser's resubmit carries the input.)
   */
  private async underDeadline(
    ctx: TurnContext,
    trace: TurnTraceCollector,
    held: HeldTurn,
  ): Promise<TurnOutcome> {
    const work = this.runAndCommit(ctx, trace, held);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, ctx.deadlineAt - Date.now()));
    });
    try {
      const first = await Promise.race([work, deadline]);
      if (first !== 'late')
        return {
          kind: 'answer',
          answer: first.session.last!.answer,
          session: first.session,
          issuedTurn: first.session.turn,
          ...(first.rendered ? { rendered: first.rendered } : {}),
        };
    } finally {
      clearTimeout(timer);
    }
    trace.late();
    work.catch((err: unknown) => this.logger.error({ err }, 'late turn failed'));
    if (held.resumed || (await held.journal.save())) return this.claims.waiting(ctx);
    return this.claims.waitForHolder(ctx, ctx.req.turn ?? 0);
  }

  /**
   * Run, render, commit, while extending the lock (so no other instance resumes a turn whose owner
   * is alive); on a failure the lock is released, so the caller's retry need not wait for it to
   * expire. Answers the committed session and its document (none when the lock was lost and
   * another owner's answer is answered instead).
   */
  private async runAndCommit(
    ctx: TurnContext,
    trace: TurnTraceCollector,
    held: HeldTurn,
  ): Promise<{ session: CallSession; rendered?: RenderedDocument | undefined }> {
    const { streamId, callId } = held.journal.current;
    const beat = setInterval(
      () => void this.sessions.extendLock(streamId, callId, held.token).catch(() => undefined),
      Math.max(50, Math.floor(this.sessions.lockTtlMs / 3)),
    );
    beat.unref();
    try {
      const before = held.journal.current;
      const { answer, result } = await this.run(ctx, trace, held.journal);
      const next = this.nextSession(before, answer, result);
      const rendered = this.render(ctx, trace, {
        kind: 'answer',
        answer,
        session: next,
        issuedTurn: next.turn,
      });
      const built = trace.committing(ctx.req, { before, next, answer, result, rendered });
      const landed = await this.commit(ctx, trace, held, next, answer, result);
      if (landed !== next) return { session: landed };
      trace.write(ctx.streamId, built);
      if (next.ended && !before.ended) {
        this.metrics.liveCalls.dec();
        await this.ports.lifecycle?.ended?.(next);
      }
      return { session: next, rendered };
    } catch (err) {
      clearInterval(beat);
      await this.sessions.unlock(streamId, callId, held.token).catch(() => undefined);
      throw err;
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Step 2: runs the agent (its effects once per turn, see turn-effects.ts). A store fault met by an
   * effect ends the turn as a store fault; any other failure answers the error document.
   */
  private async run(
    ctx: TurnContext,
    trace: TurnTraceCollector,
    journal: TurnJournal,
  ): Promise<{ answer: AnswerSpec; result: TurnResult | null }> {
    const session = journal.current;
    const pending = session.pending!;
    const timer = trace.agentTimer();
    let result: TurnResult | null = null;
    let answer: AnswerSpec;
    try {
      result = await agentStepSpan(() =>
        runTurn(
          ctx.agent,
          pending.input,
          session.state,
          {
            streamId: ctx.streamId,
            callId: session.callId,
            userId: session.userId,
            from: session.from,
            to: session.to,
            sessionId: session.sessionId,
          },
          {
            retries: ctx.settings.retries,
            onExceedingRetries: ctx.settings.onExceedingRetries,
            callTerminationHandler: ctx.settings.callTerminationHandler,
            noMatchPrompt: ctx.settings.standardResponses.noMatch,
            errorPrompt: ctx.settings.standardResponses.error,
            byLanguage: languageResponses(ctx.settings),
          },
          effectPorts(
            this.ports.agentPorts,
            journal,
            { streamId: session.streamId, callId: session.callId, turn: pending.turn },
            trace.draft,
          ),
        ),
      );
      answer = toAnswer(result);
      if (pending.turn === 0 && !session.last && ctx.settings.welcomeMessage) {
        answer.prompt = [
          { type: 'text', text: ctx.settings.welcomeMessage },
          { type: 'break', time: '300ms' },
          ...answer.prompt,
        ];
      }
    } catch (err) {
      this.logger.error({ err, callId: session.callId }, 'agent turn failed');
      answer = { action: 'error', prompt: [], error: 'agent_error' };
    }
    if (journal.fault !== undefined) throw journal.fault;
    this.metrics.agentNodeLatency.observe({ type: 'turn' }, timer.stop() / 1000);
    return { answer, result };
  }

  /** The session after the turn: its answer kept as the last, the next turn issued, no pending turn. */
  private nextSession(before: CallSession, answer: AnswerSpec, result: TurnResult | null): CallSession {
    const pending = before.pending!;
    // a rest copy without the pending turn: `delete` would leave a slow dictionary object
    const { pending: _done, ...rest } = before;
    return {
      ...rest,
      turn: pending.turn + 1,
      state: result ? result.state : before.state,
      last: { turn: pending.turn, event: pending.event, answer },
      ended: answer.action === 'end' || answer.action === 'error' || pending.input.kind === 'hangup',
      activeAt: this.now(),
    };
  }

  /** Step 3: the document of an outcome, when the request renders (timed for the trace). */
  private render(
    ctx: TurnContext,
    trace: TurnTraceCollector,
    outcome: TurnOutcome,
  ): RenderedDocument | undefined {
    const render = ctx.render;
    return render ? trace.rendering(() => render(outcome)) : undefined;
  }

  /**
   * Step 4: records the turn's history and commits the session, releasing the lock. When the lock
   * was lost meanwhile, the other owner's committed session (its answer is the request's).
   */
  private async commit(
    ctx: TurnContext,
    trace: TurnTraceCollector,
    held: HeldTurn,
    next: CallSession,
    answer: AnswerSpec,
    result: TurnResult | null,
  ): Promise<CallSession> {
    const messages = turnMessages(
      { streamId: ctx.streamId, lang: ctx.lang },
      next,
      held.text,
      answer,
      result,
      this.now(),
      ctx.traceId ?? activeTraceId(),
    );
    const committed = await trace.store(
      historyWriteSpan(messages, () =>
        commitWithHistory(this.sessions, this.ports.history, next, held.token, messages),
      ),
    );
    if (committed) return next;
    this.logger.warn({ callId: next.callId }, 'turn lock lost before commit; the other owner answers');
    const current = await this.sessions.load(next.streamId, next.callId);
    if (current?.last) return current;
    throw AppError.storeUnavailable();
  }

  // ---- 5. answer -------------------------------------------------------------------------------

  /**
   * Step 5: the request's answer. The turn this request committed went out rendered, its trace
   * written with the commit; any other outcome (a wait, a stored answer delivered again) is rendered
   * now and traced as answered. An expired call is not traced (there is no call to trace).
   */
  private answer(ctx: TurnContext, trace: TurnTraceCollector, outcome: TurnOutcome): TurnOutcome {
    if (outcome.rendered || (outcome.kind === 'answer' && outcome.answer.error === 'session_expired'))
      return outcome;
    const rendered = this.render(ctx, trace, outcome);
    if (!rendered) return outcome;
    trace.uncommitted(ctx.streamId, outcome, rendered);
    return { ...outcome, rendered };
  }
}
