/**
 * Call sessions in the store, keyed by app and callId (the same callId in two apps is two calls)
 * with a TTL. Turns of one call are serialized with a
 * lock (SET NX PX + token); every change made under the lock is guarded by the lock's token, so a
 * process that lost its lock can never overwrite the work of the one that took over. The lock
 * lives a few seconds and its owner extends it while the turn runs, so when the owner dies another
 * instance can resume the turn within `lockTtlMs`.
 *
 * With an idle policy, every commit also files the call in the idle index (storeKeys.idleCalls:
 * callId scored by when it falls idle) or, once it ended, takes it out: in the commit's own step
 * where the store allows keys of other slots, else in a step before (filing) or after (removing)
 * the commit, so that a live call is never left out of the index by a fault between the two.
 */
import { storeKeys, type Guard, type Store, type WriteOp } from '../store/index.js';
import type { CallSession } from './call-session.js';

/** A call in the idle index: its app, then its id (an app id holds no ":", a call id may). */
const idleMember = (streamId: string, callId: string): string => `${streamId}:${callId}`;
function parseIdleMember(member: string): { streamId: string; callId: string } {
  const at = member.indexOf(':');
  return { streamId: member.slice(0, at), callId: member.slice(at + 1) };
}

/**
 * A stored session; one written before the app's id was named `streamId` in code carries it as
 * `appId` and reads as `streamId` (a live call outlasts a deploy).
 */
function parseSession(raw: string): CallSession {
  const { appId, ...rest } = JSON.parse(raw) as CallSession & { appId?: string };
  return appId === undefined || rest.streamId !== undefined ? rest : { ...rest, streamId: appId };
}

/** How long a live call may stay silent before the gateway closes it. */
export interface IdlePolicy {
  idleMs: number;
  /** For a call whose latest document is a transfer (the caller talks to someone else meanwhile). */
  transferIdleMs: number;
}

export class CallSessionRepository {
  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    readonly lockTtlMs = 5_000,
    private readonly idle?: IdlePolicy,
  ) {}

  /** When a live call falls idle (ms since epoch); null for an ended call or without an idle policy. */
  idleAt(session: CallSession): number | null {
    if (!this.idle || session.ended) return null;
    const limit = session.last?.answer.action === 'transfer' ? this.idle.transferIdleMs : this.idle.idleMs;
    return (session.activeAt ?? session.createdOn) + limit;
  }

  /** The idle index's entry for the session: filed by when it falls idle, or removed once it ended. */
  private indexOp(session: CallSession): WriteOp {
    const at = this.idleAt(session);
    const member = idleMember(session.streamId, session.callId);
    return at === null
      ? { op: 'zrem', key: storeKeys.idleCalls(), member }
      : { op: 'zadd', key: storeKeys.idleCalls(), score: at, member };
  }

  /** Files the session in the idle index as it is now (a sweep found it active after all). */
  async index(session: CallSession): Promise<void> {
    if (this.idle) await this.store.atomic([this.indexOp(session)]);
  }

  /** Takes a call out of the idle index (ended, or its session is gone). */
  async unindex(streamId: string, callId: string): Promise<void> {
    await this.store.atomic([
      { op: 'zrem', key: storeKeys.idleCalls(), member: idleMember(streamId, callId) },
    ]);
  }

  /** Claims calls that fell idle by `nowMs` (see Store.claimDue): other sweeps skip them until `leaseUntilMs`. */
  async claimIdle(
    nowMs: number,
    leaseUntilMs: number,
    max: number,
  ): Promise<Array<{ streamId: string; callId: string }>> {
    const members = await this.store.claimDue(storeKeys.idleCalls(), nowMs, leaseUntilMs, max);
    return members.map(parseIdleMember);
  }

  async load(streamId: string, callId: string): Promise<CallSession | null> {
    return (await this.loadVersioned(streamId, callId))?.session ?? null;
  }

  /** The session and its stored text (the version `stashPending` compares against). */
  async loadVersioned(
    streamId: string,
    callId: string,
  ): Promise<{ session: CallSession; raw: string } | null> {
    const raw = await this.store.get(storeKeys.callSession(streamId, callId));
    return raw ? { session: parseSession(raw), raw } : null;
  }

  /**
   * Takes the call's lock and loads the session in one round trip. With `fresh`, a call that has no
   * session yet gets this one, created under the lock in the same step (`created`).
   */
  async lockAndLoad(
    streamId: string,
    callId: string,
    token: string,
    fresh?: CallSession,
  ): Promise<{ locked: boolean; session: CallSession | null; created: boolean }> {
    const create = fresh ? { value: JSON.stringify(fresh), ttlMs: this.ttlMs } : undefined;
    const r = await this.store.lockAndRead(
      storeKeys.callLock(streamId, callId),
      token,
      this.lockTtlMs,
      storeKeys.callSession(streamId, callId),
      create,
    );
    if (r.created) return { locked: true, session: fresh!, created: true };
    return { locked: r.acquired, session: r.value ? parseSession(r.value) : null, created: false };
  }

  tryLock(streamId: string, callId: string, token: string): Promise<boolean> {
    return this.store.set(storeKeys.callLock(streamId, callId), token, { ttlMs: this.lockTtlMs, nx: true });
  }

  async isLocked(streamId: string, callId: string): Promise<boolean> {
    return this.store.exists(storeKeys.callLock(streamId, callId));
  }

  /** Extends the lock while its owner still holds it. False when the lock was lost. */
  async extendLock(streamId: string, callId: string, token: string): Promise<boolean> {
    const key = storeKeys.callLock(streamId, callId);
    return (
      await this.store.atomic([{ op: 'pexpire', key, ttlMs: this.lockTtlMs }], [{ key, equals: token }])
    ).ok;
  }

  /**
   * Writes the session without the lock, only if it is still the stored version `raw` (used to
   * keep a turn's input when the lock is held by another request). False when it changed.
   */
  async stashPending(raw: string, session: CallSession): Promise<boolean> {
    const key = storeKeys.callSession(session.streamId, session.callId);
    return (
      await this.store.atomic(
        [{ op: 'set', key, value: JSON.stringify(session), ttlMs: this.ttlMs }],
        [{ key, equals: raw }],
      )
    ).ok;
  }

  /** Writes the session while still holding the lock. False when the lock was lost. */
  saveLocked(session: CallSession, token: string): Promise<boolean> {
    const { streamId, callId } = session;
    return this.store.writeHeld(
      storeKeys.callLock(streamId, callId),
      token,
      storeKeys.callSession(streamId, callId),
      JSON.stringify(session),
      this.ttlMs,
      { extendMs: this.lockTtlMs },
    );
  }

  /**
   * Writes the session and releases the lock in one step (and files it in the idle index). False
   * when the lock was lost.
   */
  async commit(session: CallSession, token: string): Promise<boolean> {
    const { streamId, callId } = session;
    const write = () =>
      this.store.writeHeld(
        storeKeys.callLock(streamId, callId),
        token,
        storeKeys.callSession(streamId, callId),
        JSON.stringify(session),
        this.ttlMs,
        { release: true },
      );
    if (!this.idle) return write();
    if (this.store.atomicAcrossSlots)
      return (await this.commitWith(session, token, { ops: [], guards: [] })) === 'ok';
    // the index is in another slot: filed before the commit, removed after it
    const op = this.indexOp(session);
    if (op.op === 'zadd') await this.store.atomic([op]);
    const ok = await write();
    if (ok && op.op === 'zrem') await this.store.atomic([op]);
    return ok;
  }

  /**
   * `commit` with other writes in the same step (their keys may be of other slots: only on a store
   * whose `atomicAcrossSlots`): all land or none. 'lost' when the lock was not held, 'refused' when
   * one of `extra`'s guards failed; nothing is written then.
   */
  async commitWith(
    session: CallSession,
    token: string,
    extra: { ops: WriteOp[]; guards: Guard[] },
  ): Promise<'ok' | 'lost' | 'refused'> {
    const { streamId, callId } = session;
    const at = this.idle ? this.idleAt(session) : undefined;
    return this.store.commitTurn({
      lockKey: storeKeys.callLock(streamId, callId),
      token,
      sessionKey: storeKeys.callSession(streamId, callId),
      session: JSON.stringify(session),
      ttlMs: this.ttlMs,
      ...(at !== undefined
        ? { idle: { key: storeKeys.idleCalls(), member: idleMember(streamId, callId), at } }
        : {}),
      ...(extra.ops.length || extra.guards.length ? { extra } : {}),
    });
  }

  async unlock(streamId: string, callId: string, token: string): Promise<void> {
    await this.store.releaseLock(storeKeys.callLock(streamId, callId), token);
  }

  /**
   * Waits until the call's lock is released (true; at once when it is not held), notified by the
   * store, or until `ms` passed (false).
   */
  waitForUnlock(streamId: string, callId: string, ms: number): Promise<boolean> {
    return this.store.waitForRelease(storeKeys.callLock(streamId, callId), ms);
  }

  /** Redis bytes of a call's keys (benchmarks). */
  memoryOf(streamId: string, callId: string): Promise<number> {
    return this.store.memoryUsage([
      storeKeys.callSession(streamId, callId),
      storeKeys.callLock(streamId, callId),
    ]);
  }
}
