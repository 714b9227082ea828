/**
 * Call sessions in the store, keyed by app and callId (the same callId in two apps is two calls)
 * with a TTL. Turns of one call are serialized with a
 * lock (SET NX PX + token); every change made under the lock is guarded by the lock's token, so a
 * process that lost its lock can never overwrite the work of the one that took over. The lock
 * lives a few seconds and its owner extends it while the turn runs, so when the owner dies another
 * instance can resume the turn within `lockTtlMs`.
 */
import { storeKeys, type Guard, type Store, type WriteOp } from '../store/index.js';
import type { CallSession } from './call-session.js';

export class CallSessionRepository {
  constructor(private readonly store: Store, private readonly ttlMs: number, readonly lockTtlMs = 5_000) {}

  async load(streamId: string, callId: string): Promise<CallSession | null> {
    return (await this.loadVersioned(streamId, callId))?.session ?? null;
  }

  /** The session and its stored text (the version `stashPending` compares against). */
  async loadVersioned(streamId: string, callId: string): Promise<{ session: CallSession; raw: string } | null> {
    const raw = await this.store.get(storeKeys.callSession(streamId, callId));
    return raw ? { session: JSON.parse(raw) as CallSession, raw } : null;
  }

  /**
   * Takes the call's lock and loads the session in one round trip. With `fresh`, a call that has no
   * session yet gets this one, created under the lock in the same step (`created`).
   */
  async lockAndLoad(streamId: string, callId: string, token: string, fresh?: CallSession): Promise<{ locked: boolean; session: CallSession | null; created: boolean }> {
    const create = fresh ? { value: JSON.stringify(fresh), ttlMs: this.ttlMs } : undefined;
    const r = await this.store.lockAndRead(storeKeys.callLock(streamId, callId), token, this.lockTtlMs, storeKeys.callSession(streamId, callId), create);
    if (r.created) return { locked: true, session: fresh!, created: true };
    return { locked: r.acquired, session: r.value ? (JSON.parse(r.value) as CallSession) : null, created: false };
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
    return (await this.store.atomic([{ op: 'pexpire', key, ttlMs: this.lockTtlMs }], [{ key, equals: token }])).ok;
  }

  /**
   * Writes the session without the lock, only if it is still the stored version `raw` (used to
   * keep a turn's input when the lock is held by another request). False when it changed.
   */
  async stashPending(raw: string, session: CallSession): Promise<boolean> {
    const key = storeKeys.callSession(session.appId, session.callId);
    return (await this.store.atomic([{ op: 'set', key, value: JSON.stringify(session), ttlMs: this.ttlMs }], [{ key, equals: raw }])).ok;
  }

  /** Writes the session while still holding the lock. False when the lock was lost. */
  saveLocked(session: CallSession, token: string): Promise<boolean> {
    const { appId, callId } = session;
    return this.store.writeHeld(storeKeys.callLock(appId, callId), token, storeKeys.callSession(appId, callId), JSON.stringify(session), this.ttlMs, { extendMs: this.lockTtlMs });
  }

  /** Writes the session and releases the lock in one step. False when the lock was lost. */
  commit(session: CallSession, token: string): Promise<boolean> {
    const { appId, callId } = session;
    return this.store.writeHeld(storeKeys.callLock(appId, callId), token, storeKeys.callSession(appId, callId), JSON.stringify(session), this.ttlMs, { release: true });
  }

  /**
   * `commit` with other writes in the same step (their keys may be of other slots: only on a store
   * whose `atomicAcrossSlots`): all land or none. 'lost' when the lock was not held, 'refused' when
   * one of `extra`'s guards failed; nothing is written then.
   */
  async commitWith(session: CallSession, token: string, extra: { ops: WriteOp[]; guards: Guard[] }): Promise<'ok' | 'lost' | 'refused'> {
    const lock = storeKeys.callLock(session.appId, session.callId);
    const ops: WriteOp[] = extra.ops.slice();
    ops.push({ op: 'set', key: storeKeys.callSession(session.appId, session.callId), value: JSON.stringify(session), ttlMs: this.ttlMs }, { op: 'del', key: lock });
    const r = await this.store.atomic(ops, [{ key: lock, equals: token }, ...extra.guards]);
    return r.ok ? 'ok' : r.failedGuard === 0 ? 'lost' : 'refused';
  }

  async unlock(streamId: string, callId: string, token: string): Promise<void> {
    const key = storeKeys.callLock(streamId, callId);
    await this.store.atomic([{ op: 'del', key }], [{ key, equals: token }]);
  }

  /** Redis bytes of a call's keys (benchmarks). */
  memoryOf(streamId: string, callId: string): Promise<number> {
    return this.store.memoryUsage([storeKeys.callSession(streamId, callId), storeKeys.callLock(streamId, callId)]);
  }
}
