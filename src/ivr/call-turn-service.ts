/**
 * The turn loop of one webhook request: serialize the call's turns across instances (a request
 * that finds the call locked waits for the store's notice of the release, not by polling), answer
 * duplicates from the stored answer without running the agent, run the agent under the turn
 * deadline (a wait document when it is late; the answer is delivered exactly once on a later
 * poll), and record the turn for history, commit the session and release the lock: in one step
 * where the store allows it (memory, a single Redis node), else history first (a Redis Cluster).
 */
import { randomUUID } from 'node:crypto';
import { runTurn, type TurnResult } from '../agent/index.js';
import { AppError, activeTraceId, type Logger, type Metrics } from '../platform/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { CallSessionRepository } from './call-session-repository.js';
import type { IvrPorts } from './ivr-ports.js';
import { TraceDraft } from './turn-trace.js';
import { commitWithHistory, turnMessages } from './turn-commit.js';
import { toTurnInput } from './turn-input.js';
import { languageResponses } from './ivr-languages.js';
import { effectPorts, TurnJournal } from './turn-effects.js';
import { agentStepSpan, historyWriteSpan, turnSpan } from './turn-spans.js';
import type { TurnContext, TurnOutcome } from './turn-context.js';
import { TurnTraceWriter } from './turn-trace-writer.js';

export { messageId } from './turn-commit.js';
export type { RenderedDocument, TurnContext, TurnOutcome } from './turn-context.js';

/** The last node a turn ran: its trace lists nodes as `<dialog>.<node>`, with marks (`!…`, `#…`) between them. */
const lastNode = (trace: readonly string[]): string | undefined => trace.findLast((t) => !t.startsWith('!') && !t.startsWith('#'));

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
  constructor(
    private readonly sessions: CallSessionRepository,
    private readonly ports: IvrPorts,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    /** The clock of call activity (idle expiry counts from it). */
    private readonly now: () => number = Date.now,
  ) {
    this.tracer = ports.traces ? new TurnTraceWriter(ports.traces) : undefined;
  }

  private readonly tracer: TurnTraceWriter | undefined;

  handle(ctx: TurnContext): Promise<TurnOutcome> {
    return turnSpan(ctx.streamId, ctx.req, () => this.handleRequest(ctx), (o) => (o.kind === 'answer' ? o.answer.action : 'wait'));
  }

  private async handleRequest(ctx: TurnContext): Promise<TurnOutcome> {
    if (!this.ports.traces || !ctx.render) return this.handleTurn(ctx);
    const traced = { ...ctx, trace: new TraceDraft(Date.now(), ctx.req) };
    const outcome = await this.handleTurn(traced);
    return this.tracer!.uncommitted(traced, outcome);
  }

  private async handleTurn(ctx: TurnContext): Promise<TurnOutcome> {
    if (ctx.req.event === 'hangup' && ctx.req.turn === undefined) return this.hangUp(ctx);
    const submitted = ctx.req.turn ?? 0;
    if (ctx.req.event === 'poll') {
      const load = this.sessions.load(ctx.streamId, ctx.req.callId!);
      const session = await (ctx.trace ? ctx.trace.store(load) : load);
      if (session) return this.poll(ctx, session, submitted);
      if (submitted > 0) return this.expired(ctx);
    }
    return this.runLocked(ctx, submitted);
  }

  /**
   * A hang-up without a turn: what a customer root sends when the browser delivered the hang-up to
   * it and not to the agent's document. It ends the call at its current turn; a call that already
   * ended gets its last answer again.
   */
  private async hangUp(ctx: TurnContext): Promise<TurnOutcome> {
    let outcome: TurnOutcome | undefined;
    // a turn in flight may commit first and answer this request from its own answer: once more then
    for (let attempt = 0; attempt < 2; attempt++) {
      const session = await this.sessions.load(ctx.streamId, ctx.req.callId!);
      if (!session) return this.expired(ctx);
      if (session.ended && session.last) return { kind: 'answer', answer: session.last.answer, session, issuedTurn: session.turn };
      outcome = await this.runLocked({ ...ctx, req: { ...ctx.req, turn: session.turn } }, session.turn);
      if (outcome.kind === 'wait' || outcome.session.ended) return outcome;
    }
    return outcome!;
  }

  /** A new call's session (turn 0, no state yet). */
  private fresh(ctx: TurnContext): CallSession {
    const { req } = ctx;
    return {
      v: 1,
      streamId: ctx.streamId,
      callId: req.callId!,
      userId: `u-${randomUUID()}`,
      sessionId: `ss-${randomUUID()}`,
      ...(req.from ? { from: req.from } : {}),
      ...(req.to ? { to: req.to } : {}),
      createdOn: Date.now(),
      activeAt: this.now(),
      turn: 0,
      state: null,
    };
  }

  private async started(session: CallSession): Promise<void> {
    this.metrics.liveCalls.inc();
    await this.ports.lifecycle?.started?.(session);
  }

  /** A submit of a turn already answered (a duplicate, or a stale resubmission) gets that answer again. */
  private answered(session: CallSession, submitted: number): TurnOutcome | null {
    if (!session.last) return null;
    if (session.last.turn === submitted || submitted < session.turn - 1 || (submitted === 0 && session.turn > 0)) {
      return { kind: 'answer', answer: session.last.answer, session, issuedTurn: session.turn };
    }
    return null;
  }

  private expired(ctx: TurnContext): TurnOutcome {
    const session: CallSession = { v: 1, streamId: ctx.streamId, callId: ctx.req.callId!, userId: '', sessionId: '', createdOn: Date.now(), turn: 0, state: null };
    return { kind: 'answer', answer: { action: 'error', prompt: [], error: 'session_expired' }, session, issuedTurn: 0 };
  }

  /** Waits for the lock (until the deadline), then runs the submitted turn. */
  private async runLocked(ctx: TurnContext, submitted: number): Promise<TurnOutcome> {
    const { streamId } = ctx;
    const callId = ctx.req.callId!;
    const token = randomUUID();
    // a call's first request brings the session to create if there is none (under the lock)
    const fresh = submitted === 0 && ctx.req.event !== 'poll' ? this.fresh(ctx) : undefined;
    let session: CallSession | null;
    for (;;) {
      const lockAndLoad = this.sessions.lockAndLoad(streamId, callId, token, fresh);
      const taken = await (ctx.trace ? ctx.trace.store(lockAndLoad) : lockAndLoad);
      if (taken.locked) {
        session = taken.session;
        if (taken.created) {
          try {
            await this.started(taken.session!);
          } catch (err) {
            await this.sessions.unlock(streamId, callId, token).catch(() => undefined);
            throw err;
          }
        }
        break;
      }
      // a holder that finished this very turn already answered it: no need to wait for the lock
      const answered = taken.session && this.answered(taken.session, submitted);
      if (answered) return answered;
      if (Date.now() + 25 >= ctx.deadlineAt) return this.waitForHolder(ctx, submitted);
      // no polling: the store tells when the holder releases the lock (or it expires: the wait ends then)
      await this.sessions.waitForUnlock(streamId, callId, Math.min(ctx.deadlineAt - Date.now() - 25, this.sessions.lockTtlMs));
    }
    if (!session) {
      // no session, and this request could not start one (a later turn, or a poll): the call is gone
      await this.sessions.unlock(streamId, callId, token);
      return this.expired(ctx);
    }
    const done = this.answered(session, submitted);
    if (done || submitted !== session.turn) {
      await this.sessions.unlock(streamId, callId, token);
      if (done) return done;
      throw AppError.badRequest('Unknown turn for this call', 'turn');
    }
    const { staged, text } = this.withInput(ctx, session, submitted);
    const journal = new TurnJournal(this.sessions, staged, token);
    // The input is stored when the turn outlives its deadline, before the wait document goes out,
    // or earlier with the first effect it keeps (a model answer), so that the poll which follows can
    // resume the turn if this process dies. (A turn that dies before either fails the caller's
    // request instead; the browser's resubmit carries the input.) When the lock is gone by then,
    // the input is kept as another waiter keeps it.
    const beforeWait = async (): Promise<TurnOutcome> => ((await journal.save()) ? this.waiting(ctx) : this.waitForHolder(ctx, submitted));
    return this.raceDeadline(ctx, this.execute(ctx, journal, token, text), beforeWait);
  }

  /**
   * The session with this request's input as the pending turn (and its ASR values on lastMessage).
   * The effects an earlier run of the same turn kept go with it (a retry after a store fault).
   */
  private withInput(ctx: TurnContext, session: CallSession, submitted: number): { staged: CallSession; text: string } {
    const read = toTurnInput(ctx.req, submitted === 0 && !session.last, ctx.settings, ctx.agent);
    const effects = session.pending?.turn === submitted ? session.pending.effects : undefined;
    const pending: NonNullable<CallSession['pending']> = { turn: submitted, event: ctx.req.event ?? 'input', input: read.input, startedAt: Date.now() };
    if (effects) pending.effects = effects;
    const staged: CallSession = { ...session, pending };
    if (read.asr && session.state) staged.state = { ...session.state, lastMessage: { text: read.text, asrMetaData: read.asr } };
    return { staged, text: read.text };
  }

  /**
   * The lock stayed taken until the deadline: the answer if the holder finished, else a wait. When
   * nothing is pending for this turn yet (the holder has not saved its input, or died before it
   * could), this request's input is kept in the session first, so the poll that follows the wait
   * document runs the caller's input instead of a turn without it.
   */
  private async waitForHolder(ctx: TurnContext, submitted: number): Promise<TurnOutcome> {
    const v = await this.sessions.loadVersioned(ctx.streamId, ctx.req.callId!);
    if (!v) return this.expired(ctx);
    const done = this.answered(v.session, submitted);
    if (done) return done;
    if (v.session.pending?.turn !== submitted && submitted === v.session.turn && ctx.req.event !== 'poll') {
      await this.sessions.stashPending(v.raw, this.withInput(ctx, v.session, submitted).staged);
    }
    return { kind: 'wait', session: v.session, turn: submitted };
  }

  /** A wait document for the submitted turn, with the stored session. */
  private async waiting(ctx: TurnContext): Promise<TurnOutcome> {
    const s = await this.sessions.load(ctx.streamId, ctx.req.callId!);
    return { kind: 'wait', session: s!, turn: ctx.req.turn ?? 0 };
  }

  /** The turn's answer; past the deadline, what `late` answers (by default a wait document). */
  private async raceDeadline(ctx: TurnContext, work: Promise<CallSession>, late: () => Promise<TurnOutcome> = () => this.waiting(ctx)): Promise<TurnOutcome> {
    const remaining = ctx.deadlineAt - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, remaining));
    });
    try {
      const first = await Promise.race([work, deadline]);
      if (first === 'late') {
        if (ctx.trace) ctx.trace.late = true;
        work.catch((err: unknown) => this.logger.error({ err }, 'late turn failed'));
        return await late();
      }
      const outcome: TurnOutcome = { kind: 'answer', answer: first.last!.answer, session: first, issuedTurn: first.turn };
      if (ctx.trace?.committed === first) {
        outcome.rendered = ctx.trace.rendered;
        ctx.trace.traced = true;
      }
      return outcome;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A poll: the answer when ready, else wait; re-runs a pending turn whose owner died. */
  private async poll(ctx: TurnContext, session: CallSession, submitted: number): Promise<TurnOutcome> {
    const callId = ctx.req.callId!;
    let s: CallSession | null = session;
    for (;;) {
      const done = s && this.answered(s, submitted);
      if (done) return done;
      if (!s?.pending || s.pending.turn !== submitted) {
        if (s && submitted === s.turn) return this.runLocked(ctx, submitted);
        throw AppError.badRequest('Nothing is pending for this turn', 'turn');
      }
      if (!(await this.sessions.isLocked(ctx.streamId, callId))) return this.resume(ctx, submitted);
      if (Date.now() + 50 >= ctx.deadlineAt) return { kind: 'wait', session: s, turn: submitted };
      await this.sessions.waitForUnlock(ctx.streamId, callId, Math.min(ctx.deadlineAt - Date.now() - 50, this.sessions.lockTtlMs));
      s = await this.sessions.load(ctx.streamId, callId);
    }
  }

  /** Takes over a pending turn whose process died: runs the stored input again. */
  private async resume(ctx: TurnContext, submitted: number): Promise<TurnOutcome> {
    const { streamId } = ctx;
    const callId = ctx.req.callId!;
    const token = randomUUID();
    if (!(await this.sessions.tryLock(streamId, callId, token))) return this.poll(ctx, (await this.sessions.load(streamId, callId))!, submitted);
    const session = await this.sessions.load(streamId, callId);
    if (!session?.pending || session.pending.turn !== submitted) {
      await this.sessions.unlock(streamId, callId, token);
      return this.handle(ctx);
    }
    this.logger.warn({ callId, turn: submitted }, 'resuming a turn whose owner stopped');
    ctx.trace?.marks.add('resumed');
    const input = session.pending.input;
    const text = input.kind === 'utterance' ? input.text : '';
    return this.raceDeadline(ctx, this.execute(ctx, new TurnJournal(this.sessions, session, token), token, text));
  }

  /**
   * Runs the turn while extending the lock (so no other instance resumes a turn whose owner is
   * alive); on a failure the lock is released, so the caller's retry need not wait for it to expire.
   */
  private async execute(ctx: TurnContext, journal: TurnJournal, token: string, text: string): Promise<CallSession> {
    const { streamId, callId } = journal.current;
    const beat = setInterval(() => void this.sessions.extendLock(streamId, callId, token).catch(() => undefined), Math.max(50, Math.floor(this.sessions.lockTtlMs / 3)));
    beat.unref();
    try {
      return await this.executeLocked(ctx, journal, token, text);
    } catch (err) {
      clearInterval(beat);
      await this.sessions.unlock(streamId, callId, token).catch(() => undefined);
      throw err;
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Runs the agent (its effects once per turn, see turn-effects.ts), records history, commits the
   * session and releases the lock. A store fault met by an effect ends the turn as a store fault.
   */
  private async executeLocked(ctx: TurnContext, journal: TurnJournal, token: string, text: string): Promise<CallSession> {
    const session = journal.current;
    const pending = session.pending!;
    const started = performance.now();
    const draft = ctx.trace;
    const storeBefore = draft?.storeMs ?? 0;
    const modelBefore = draft?.modelMs ?? 0;
    let result: TurnResult | null = null;
    let answer: AnswerSpec;
    try {
      result = await agentStepSpan(() => runTurn(
        ctx.agent,
        pending.input,
        session.state,
        { streamId: ctx.streamId, callId: session.callId, userId: session.userId, from: session.from, to: session.to, sessionId: session.sessionId },
        {
          retries: ctx.settings.retries,
          onExceedingRetries: ctx.settings.onExceedingRetries,
          callTerminationHandler: ctx.settings.callTerminationHandler,
          noMatchPrompt: ctx.settings.standardResponses.noMatch,
          errorPrompt: ctx.settings.standardResponses.error,
          byLanguage: languageResponses(ctx.settings),
        },
        effectPorts(this.ports.agentPorts, journal, { streamId: session.streamId, callId: session.callId, turn: pending.turn }, draft),
      ));
      answer = toAnswer(result);
      if (pending.turn === 0 && !session.last && ctx.settings.welcomeMessage) {
        answer.prompt = [{ type: 'text', text: ctx.settings.welcomeMessage }, { type: 'break', time: '300ms' }, ...answer.prompt];
      }
    } catch (err) {
      this.logger.error({ err, callId: session.callId }, 'agent turn failed');
      answer = { action: 'error', prompt: [], error: 'agent_error' };
    }
    if (journal.fault !== undefined) throw journal.fault;
    const agentElapsed = performance.now() - started;
    this.metrics.agentNodeLatency.observe({ type: 'turn' }, agentElapsed / 1000);
    if (draft) draft.agentMs += Math.max(0, agentElapsed - (draft.modelMs - modelBefore) - (draft.storeMs - storeBefore));
    // the session without its pending turn (a rest copy: `delete` would leave a slow dictionary object)
    const { pending: _done, ...rest } = session;
    const next: CallSession = {
      ...rest,
      turn: pending.turn + 1,
      state: result ? result.state : session.state,
      last: { turn: pending.turn, event: pending.event, answer },
      ended: answer.action === 'end' || answer.action === 'error' || pending.input.kind === 'hangup',
      activeAt: this.now(),
    };
    const trace = draft && this.tracer ? this.tracer.committed(ctx, draft, session, next, answer, result) : undefined;
    const messages = turnMessages({ streamId: ctx.streamId, lang: ctx.lang }, next, text, answer, result, this.now(), activeTraceId());
    const commit = historyWriteSpan(messages, () => commitWithHistory(this.sessions, this.ports.history, next, token, messages));
    if (!(await (draft ? draft.store(commit) : commit))) {
      this.logger.warn({ callId: session.callId }, 'turn lock lost before commit; the other owner answers');
      const current = await this.sessions.load(session.streamId, session.callId);
      if (current?.last) return current;
      throw AppError.storeUnavailable();
    }
    if (draft && trace) {
      draft.committed = next;
      this.tracer!.write(ctx.streamId, trace);
    }
    if (next.ended && !session.ended) {
      this.metrics.liveCalls.dec();
      await this.ports.lifecycle?.ended?.(next);
    }
    return next;
  }
}
