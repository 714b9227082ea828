/**
 * Step 1 of the turn loop (call-turn-service.ts), lock and read: the call's lock taken and its
 * session read in one round trip, with what a request gets when it cannot run its turn now. A
 * request that finds the call locked waits for the store's notice of the release (not by polling);
 * a duplicate gets its stored answer without running the agent; a poll watches the pending turn
 * (`watch`: its answer when ready, the turn taken over when its owner stopped, a wait at the
 * deadline). What it claims is a turn held under the lock with its input (HeldTurn), or the
 * request's answer at once.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type Logger, type Metrics } from '../platform/index.js';
import type { CallSession } from './call-session.js';
import type { CallSessionRepository } from './call-session-repository.js';
import type { CallLifecycle } from './ivr-ports.js';
import { toTurnInput } from './turn-input.js';
import { TurnJournal } from './turn-effects.js';
import type { TurnContext, TurnOutcome } from './turn-context.js';
import type { TurnTraceCollector } from '../tracing/index.js';

/** A turn this request holds the call's lock for, ready to run: the session with its pending input. */
export interface HeldTurn {
  journal: TurnJournal;
  token: string;
  /** What the caller said (for history); '' for an event. */
  text: string;
  /** Taken over from an owner that stopped: its stored input runs again. */
  resumed: boolean;
}

/** What lock and read found: the request's answer at once, or a turn to run. */
export type Claim = { outcome: TurnOutcome } | { held: HeldTurn };

/** A poll that finds nothing pending for the call's current turn runs it as any request would. */
const RUN_AS_REQUEST = 'run as request';

/** A session's stored answer, for the turn it issued. */
export const storedAnswer = (session: CallSession): TurnOutcome => ({
  kind: 'answer',
  answer: session.last!.answer,
  session,
  issuedTurn: session.turn,
});

export class TurnClaims {
  constructor(
    private readonly sessions: CallSessionRepository,
    private readonly lifecycle: CallLifecycle | undefined,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    /** The clock of call activity (idle expiry counts from it). */
    private readonly now: () => number,
  ) {}

  /** A poll watches its pending turn; any other request (or a poll with nothing pending) takes the lock. */
  async lockAndRead(ctx: TurnContext, trace: TurnTraceCollector): Promise<Claim> {
    if (ctx.req.event === 'poll') {
      const watched = await this.watch(ctx, trace);
      if (watched !== RUN_AS_REQUEST) return watched;
    }
    return this.lock(ctx, trace);
  }

  /** Takes the call's lock and reads its session (waiting, until the deadline, for another holder to release it). */
  private async lock(ctx: TurnContext, trace: TurnTraceCollector): Promise<Claim> {
    const { streamId } = ctx;
    const callId = ctx.req.callId!;
    const submitted = ctx.req.turn ?? 0;
    const token = randomUUID();
    // a call's first request brings the session to create if there is none (under the lock)
    const fresh = submitted === 0 && ctx.req.event !== 'poll' ? this.fresh(ctx) : undefined;
    for (;;) {
      const taken = await trace.store(this.sessions.lockAndLoad(streamId, callId, token, fresh));
      if (taken.locked) {
        if (taken.created) await this.started(taken.session!, token);
        return this.claimed(ctx, taken.session, token);
      }
      // a holder that finished this very turn already answered it: no need to wait for the lock
      const answered = taken.session && this.answered(taken.session, submitted);
      if (answered) return { outcome: answered };
      if (Date.now() + 25 >= ctx.deadlineAt) return { outcome: await this.waitForHolder(ctx, submitted) };
      // no polling: the store tells when the holder releases the lock (or it expires: the wait ends then)
      await this.sessions.waitForUnlock(
        streamId,
        callId,
        Math.min(ctx.deadlineAt - Date.now() - 25, this.sessions.lockTtlMs),
      );
    }
  }

  /** With the lock held: the submitted turn with this request's input, or (lock released) the stored answer or a refusal. */
  private async claimed(ctx: TurnContext, session: CallSession | null, token: string): Promise<Claim> {
    const { streamId } = ctx;
    const callId = ctx.req.callId!;
    const submitted = ctx.req.turn ?? 0;
    if (!session) {
      // no session, and this request could not start one (a later turn, or a poll): the call is gone
      await this.sessions.unlock(streamId, callId, token);
      return { outcome: this.expired(ctx) };
    }
    const done = this.answered(session, submitted);
    if (done || submitted !== session.turn) {
      await this.sessions.unlock(streamId, callId, token);
      if (done) return { outcome: done };
      throw AppError.badRequest('Unknown turn for this call', 'turn');
    }
    const { staged, text } = this.withInput(ctx, session, submitted);
    return { held: { journal: new TurnJournal(this.sessions, staged, token), token, text, resumed: false } };
  }

  /**
   * A poll: the answer when ready; the pending turn taken over when its owner stopped (the lock is
   * free); a wait at the deadline. A poll with nothing pending for the call's current turn (or for a
   * call not started yet) runs it as any request would.
   */
  private async watch(ctx: TurnContext, trace: TurnTraceCollector): Promise<Claim | typeof RUN_AS_REQUEST> {
    const { streamId } = ctx;
    const callId = ctx.req.callId!;
    const submitted = ctx.req.turn ?? 0;
    let s = await trace.store(this.sessions.load(streamId, callId));
    if (!s) return submitted > 0 ? { outcome: this.expired(ctx) } : RUN_AS_REQUEST;
    for (;;) {
      const done = s && this.answered(s, submitted);
      if (done) return { outcome: done };
      if (!s?.pending || s.pending.turn !== submitted) {
        if (s && submitted === s.turn) return RUN_AS_REQUEST;
        throw AppError.badRequest('Nothing is pending for this turn', 'turn');
      }
      if (!(await this.sessions.isLocked(streamId, callId))) {
        const taken = await this.takeOver(ctx, trace, submitted);
        if (taken.held) return { held: taken.held };
        s = await this.sessions.load(streamId, callId);
        // the turn moved on meanwhile: read as a new poll would
        if (taken.moved && !s) return submitted > 0 ? { outcome: this.expired(ctx) } : RUN_AS_REQUEST;
        continue;
      }
      if (Date.now() + 50 >= ctx.deadlineAt)
        return { outcome: { kind: 'wait', session: s, turn: submitted } };
      await this.sessions.waitForUnlock(
        streamId,
        callId,
        Math.min(ctx.deadlineAt - Date.now() - 50, this.sessions.lockTtlMs),
      );
      s = await this.sessions.load(streamId, callId);
    }
  }

  /**
   * Takes over a pending turn whose owner stopped: its stored input runs again. Nothing held when
   * another request took the lock first, or (`moved`) when the turn is no longer pending.
   */
  private async takeOver(
    ctx: TurnContext,
    trace: TurnTraceCollector,
    submitted: number,
  ): Promise<{ held?: HeldTurn; moved?: boolean }> {
    const { streamId } = ctx;
    const callId = ctx.req.callId!;
    const token = randomUUID();
    if (!(await this.sessions.tryLock(streamId, callId, token))) return {};
    const session = await this.sessions.load(streamId, callId);
    if (!session?.pending || session.pending.turn !== submitted) {
      await this.sessions.unlock(streamId, callId, token);
      return { moved: true };
    }
    this.logger.warn({ callId, turn: submitted }, 'resuming a turn whose owner stopped');
    trace.mark('resumed');
    const input = session.pending.input;
    return {
      held: {
        journal: new TurnJournal(this.sessions, session, token),
        token,
        text: input.kind === 'utterance' ? input.text : '',
        resumed: true,
      },
    };
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

  /** A call's session was created under this request's lock (the lock released when that fails). */
  private async started(session: CallSession, token: string): Promise<void> {
    try {
      this.metrics.liveCalls.inc();
      await this.lifecycle?.started?.(session);
    } catch (err) {
      await this.sessions.unlock(session.streamId, session.callId, token).catch(() => undefined);
      throw err;
    }
  }

  /** A submit of a turn already answered (a duplicate, or a stale resubmission) gets that answer again. */
  private answered(session: CallSession, submitted: number): TurnOutcome | null {
    if (!session.last) return null;
    if (
      session.last.turn === submitted ||
      submitted < session.turn - 1 ||
      (submitted === 0 && session.turn > 0)
    )
      return storedAnswer(session);
    return null;
  }

  expired(ctx: TurnContext): TurnOutcome {
    const session: CallSession = {
      v: 1,
      streamId: ctx.streamId,
      callId: ctx.req.callId!,
      userId: '',
      sessionId: '',
      createdOn: Date.now(),
      turn: 0,
      state: null,
    };
    return {
      kind: 'answer',
      answer: { action: 'error', prompt: [], error: 'session_expired' },
      session,
      issuedTurn: 0,
    };
  }

  /**
   * The session with this request's input as the pending turn (and its ASR values on lastMessage).
   * The effects an earlier run of the same turn kept go with it (a retry after a store fault).
   */
  private withInput(
    ctx: TurnContext,
    session: CallSession,
    submitted: number,
  ): { staged: CallSession; text: string } {
    const read = toTurnInput(ctx.req, submitted === 0 && !session.last, ctx.settings, ctx.agent);
    const effects = session.pending?.turn === submitted ? session.pending.effects : undefined;
    const pending: NonNullable<CallSession['pending']> = {
      turn: submitted,
      event: ctx.req.event ?? 'input',
      input: read.input,
      startedAt: Date.now(),
    };
    if (effects) pending.effects = effects;
    const staged: CallSession = { ...session, pending };
    if (read.asr && session.state)
      staged.state = { ...session.state, lastMessage: { text: read.text, asrMetaData: read.asr } };
    return { staged, text: read.text };
  }

  /**
   * The lock stayed taken until the deadline: the answer if the holder finished, else a wait. When
   * nothing is pending for this turn yet (the holder has not saved its input, or died before it
   * could), this request's input is kept in the session first, so the poll that follows the wait
   * document runs the caller's input instead of a turn without it.
   */
  async waitForHolder(ctx: TurnContext, submitted: number): Promise<TurnOutcome> {
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
  async waiting(ctx: TurnContext): Promise<TurnOutcome> {
    const s = await this.sessions.load(ctx.streamId, ctx.req.callId!);
    return { kind: 'wait', session: s!, turn: ctx.req.turn ?? 0 };
  }
}
