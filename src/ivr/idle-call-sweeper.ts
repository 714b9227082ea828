/**
 * Idle-call expiry: a live call that stops sending turns (the browser went away without a hang-up
 * reaching the gateway, e.g. one that delivers connection.disconnect.hangup to the top-level
 * document only) is closed by the gateway after CALL_IDLE_TIMEOUT_S, and its end is recorded in
 * history as a hang-up ("hung up", tag hangup=idle) at the time it was closed.
 *
 * Every instance sweeps; a sweep claims due calls from the idle index in one atomic step (Lua
 * claim-due.lua, or one synchronous step in memory), so two sweeps at once never take the same
 * call, and a claim an instance does not settle (it died) comes due again when its lease ends.
 * A claimed call is then closed under the call's own lock, only if it is still live and still
 * idle by its session (a turn that came meanwhile moved it on): the close is a turn of its own
 * (history and commit in one step where the store allows it), so it lands once.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type Logger, type Metrics } from '../platform/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { CallSessionRepository } from './call-session-repository.js';
import type { IvrPorts, TurnMessage } from './ivr-ports.js';
import { commitWithHistory, hungUpMessage } from './turn-commit.js';

export interface IdleSweepOptions {
  /** The clock the sweep compares with (the turn loop's clock). */
  now: () => number;
  /** How long a claim keeps other sweeps off a call. */
  leaseMs: number;
  /** Calls claimed per step. */
  batch?: number;
}

/** What a close did, by call. */
export type IdleOutcome = 'closed' | 'active' | 'busy' | 'gone';

const END: AnswerSpec = { action: 'end', prompt: [] };

export class IdleCallSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly sessions: CallSessionRepository,
    private readonly ports: IvrPorts,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly options: IdleSweepOptions,
  ) {}

  /** Closes every call idle by now; answers how many it closed. */
  async sweep(): Promise<number> {
    let closed = 0;
    for (;;) {
      const now = this.options.now();
      const batch = this.options.batch ?? 100;
      const claimed = await this.sessions.claimIdle(now, now + this.options.leaseMs, batch);
      for (const { streamId, callId } of claimed)
        if ((await this.close(streamId, callId, now)) === 'closed') closed++;
      if (claimed.length < batch) return closed;
    }
  }

  /** Sweeps every `intervalMs` in the background (unref'd: it never keeps the process up). */
  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((err: unknown) =>
          this.logger.warn({ err }, 'idle call sweep failed; the next one tries again'),
        )
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Closes one claimed call if it is still live and idle. */
  async close(streamId: string, callId: string, now: number): Promise<IdleOutcome> {
    const token = randomUUID();
    // a turn is running: its commit files the call again; if its owner died, the claim's lease brings it back
    if (!(await this.sessions.tryLock(streamId, callId, token))) return 'busy';
    try {
      const session = await this.sessions.load(streamId, callId);
      if (!session || session.ended) {
        await this.sessions.unlock(streamId, callId, token);
        await this.sessions.unindex(streamId, callId);
        return 'gone';
      }
      const idleAt = this.sessions.idleAt(session);
      if (idleAt !== null && idleAt > now) {
        await this.sessions.index(session);
        await this.sessions.unlock(streamId, callId, token);
        return 'active';
      }
      const next = closedSession(session, now);
      const lang = await this.langOf(session);
      if (!(await this.commit(next, token, [hungUpMessage(session, session.turn, lang, now, 'idle')])))
        return 'busy';
      this.metrics.liveCalls.dec();
      await this.ports.lifecycle?.ended?.(next);
      this.logger.info(
        { callId, streamId: session.streamId, turn: session.turn },
        'idle call closed: recorded as hung up',
      );
      return 'closed';
    } catch (err) {
      await this.sessions.unlock(streamId, callId, token).catch(() => undefined);
      throw err;
    }
  }

  /** History and commit; an app deleted meanwhile refuses history, and the call is closed without it. */
  private async commit(next: CallSession, token: string, messages: TurnMessage[]): Promise<boolean> {
    let ok: boolean;
    try {
      ok = await commitWithHistory(this.sessions, this.ports.history, next, token, messages);
    } catch (err) {
      if (!(err instanceof AppError && err.status === 404)) throw err;
      ok = await this.sessions.commit(next, token);
    }
    if (ok) this.trace(next);
    return ok;
  }

  /** The close as a trace of its own (event hangup, marked idle), handed to the trace writer after the commit. */
  private trace(next: CallSession): void {
    const traces = this.ports.traces;
    if (!traces) return;
    const at = Date.now();
    const turn = next.last!.turn;
    traces.write(
      next.streamId,
      {
        callId: next.callId,
        turn,
        receivedAt: at,
        durationMs: 0,
        timing: { storeMs: 0, agentMs: 0, modelMs: 0, renderMs: 0 },
        instance: traces.instanceId,
        event: 'hangup',
        marks: ['idle'],
        request: {},
        document: { kind: 'none' },
      },
      {
        callId: next.callId,
        ...(next.from ? { from: next.from } : {}),
        ...(next.to ? { to: next.to } : {}),
        startedAt: next.createdOn,
        lastTurnAt: at,
        turns: next.turn,
        lastEvent: 'hangup',
        ended: 'hungup',
      },
    );
  }

  /** The language tag the webhook gives the app's messages (`en` → `en-US`). */
  private async langOf(session: CallSession): Promise<string> {
    const app = await this.ports.apps.findApp(session.streamId);
    const language = app?.language ?? 'en';
    return language.includes('-') ? language : `${language}-US`;
  }
}

/** The session after a hang-up at its current turn: ended, with an empty end as the last answer. */
function closedSession(session: CallSession, now: number): CallSession {
  const { pending: _dropped, ...rest } = session;
  return {
    ...rest,
    turn: session.turn + 1,
    state: session.state ? { ...session.state, ended: true } : null,
    last: { turn: session.turn, event: 'hangup', answer: END },
    ended: true,
    activeAt: now,
  };
}
