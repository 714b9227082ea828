/**
 * Call sessions in the store, keyed by callId with a TTL. Turns of one call are serialized with a
 * lock (SET NX PX + token); every change made under the lock is guarded by the lock's token, so a
 * process that lost its lock can never overwrite the work of the one that took over.
 */
import { storeKeys, type Store } from '../store/index.js';
import type { CallSession } from './call-session.js';

export class CallSessionRepository {
  constructor(private readonly store: Store, private readonly ttlMs: number, private readonly lockTtlMs = 30_000) {}

  async load(callId: string): Promise<CallSession | null> {
    const raw = await this.store.get(storeKeys.callSession(callId));
    return raw ? (JSON.parse(raw) as CallSession) : null;
  }

  /** Creates the session unless one exists; answers the session that is stored afterwards. */
  async create(session: CallSession): Promise<{ session: CallSession; created: boolean }> {
    const key = storeKeys.callSession(session.callId);
    const r = await this.store.atomic([{ op: 'set', key, value: JSON.stringify(session), ttlMs: this.ttlMs }], [{ key, absent: true }]);
    if (r.ok) return { session, created: true };
    const existing = await this.load(session.callId);
    return existing ? { session: existing, created: false } : this.create(session);
  }

  tryLock(callId: string, token: string): Promise<boolean> {
    return this.store.set(storeKeys.callLock(callId), token, { ttlMs: this.lockTtlMs, nx: true });
  }

  async isLocked(callId: string): Promise<boolean> {
    return this.store.exists(storeKeys.callLock(callId));
  }

  /** Writes the session while still holding the lock. False when the lock was lost. */
  async saveLocked(session: CallSession, token: string): Promise<boolean> {
    const r = await this.store.atomic(
      [
        { op: 'set', key: storeKeys.callSession(session.callId), value: JSON.stringify(session), ttlMs: this.ttlMs },
        { op: 'pexpire', key: storeKeys.callLock(session.callId), ttlMs: this.lockTtlMs },
      ],
      [{ key: storeKeys.callLock(session.callId), equals: token }],
    );
    return r.ok;
  }

  /** Writes the session and releases the lock in one step. False when the lock was lost. */
  async commit(session: CallSession, token: string): Promise<boolean> {
    const r = await this.store.atomic(
      [
        { op: 'set', key: storeKeys.callSession(session.callId), value: JSON.stringify(session), ttlMs: this.ttlMs },
        { op: 'del', key: storeKeys.callLock(session.callId) },
      ],
      [{ key: storeKeys.callLock(session.callId), equals: token }],
    );
    return r.ok;
  }

  async unlock(callId: string, token: string): Promise<void> {
    await this.store.atomic([{ op: 'del', key: storeKeys.callLock(callId) }], [{ key: storeKeys.callLock(callId), equals: token }]);
  }

  /** Redis bytes of a call's keys (benchmarks). */
  memoryOf(callId: string): Promise<number> {
    return this.store.memoryUsage([storeKeys.callSession(callId), storeKeys.callLock(callId)]);
  }
}
