/** Sandbox records: the app's number, sealed PIN and secret, line limit; numbers unique across apps. */
import type { Sealer } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';

export interface SandboxRecord {
  streamId: string;
  enabled: boolean;
  phoneNumber: string;
  pin: string;
  secret: string;
  maxConcurrentCalls: number;
}

export class SandboxRepository {
  constructor(
    private readonly store: Store,
    private readonly sealer: Sealer,
  ) {}

  async find(streamId: string): Promise<SandboxRecord | null> {
    const h = await this.store.hgetall(storeKeys.sandbox(streamId));
    if (!h.phoneNumber) return null;
    return {
      streamId,
      enabled: h.enabled === 'true',
      phoneNumber: h.phoneNumber,
      pin: this.sealer.open(h.pin!),
      secret: this.sealer.open(h.secret!),
      maxConcurrentCalls: Number(h.maxConcurrentCalls ?? 2),
    };
  }

  /** The app's sandbox number, without opening the sealed PIN and secret. */
  phoneNumberOf(streamId: string): Promise<string | null> {
    return this.store.hget(storeKeys.sandbox(streamId), 'phoneNumber');
  }

  /** Stores a new sandbox; false when the app has one already (a concurrent first enable). */
  async create(rec: SandboxRecord): Promise<boolean> {
    const key = storeKeys.sandbox(rec.streamId);
    const fields = {
      enabled: String(rec.enabled),
      phoneNumber: rec.phoneNumber,
      pin: this.sealer.seal(rec.pin),
      secret: this.sealer.seal(rec.secret),
      maxConcurrentCalls: String(rec.maxConcurrentCalls),
    };
    return (
      await this.store.atomic(
        [{ op: 'hset', key, fields }],
        [{ key, hashField: 'phoneNumber', absent: true }],
      )
    ).ok;
  }

  /**
   * Changes the given fields of the app's sandbox, only while its number is still `phoneNumberWas`
   * (nobody changed it meanwhile); the others stay as stored. False when it changed.
   */
  async update(
    streamId: string,
    phoneNumberWas: string,
    change: Partial<Omit<SandboxRecord, 'streamId'>>,
  ): Promise<boolean> {
    const key = storeKeys.sandbox(streamId);
    const fields: Record<string, string> = {};
    if (change.enabled !== undefined) fields.enabled = String(change.enabled);
    if (change.phoneNumber !== undefined) fields.phoneNumber = change.phoneNumber;
    if (change.pin !== undefined) fields.pin = this.sealer.seal(change.pin);
    if (change.secret !== undefined) fields.secret = this.sealer.seal(change.secret);
    if (change.maxConcurrentCalls !== undefined)
      fields.maxConcurrentCalls = String(change.maxConcurrentCalls);
    return (
      await this.store.atomic(
        [{ op: 'hset', key, fields }],
        [{ key, hashField: 'phoneNumber', equals: phoneNumberWas }],
      )
    ).ok;
  }

  /** Claims a number for an app; false when another app holds it (atomic). */
  async claimNumber(phoneNumber: string, streamId: string): Promise<boolean> {
    const key = storeKeys.sandboxNumber(phoneNumber);
    const r = await this.store.atomic([{ op: 'set', key, value: streamId }], [{ key, absent: true }]);
    return r.ok || (await this.store.get(key)) === streamId;
  }

  async releaseNumber(phoneNumber: string, streamId: string): Promise<void> {
    const key = storeKeys.sandboxNumber(phoneNumber);
    await this.store.atomic([{ op: 'del', key }], [{ key, equals: streamId }]);
  }

  appForNumber(phoneNumber: string): Promise<string | null> {
    return this.store.get(storeKeys.sandboxNumber(phoneNumber));
  }

  /**
   * Claims a login attempt id once (after a right PIN and secret), for as long as the attempt is
   * valid: false when it was claimed before (a replayed submission).
   */
  async claimAttempt(attemptId: string, ttlMs: number): Promise<boolean> {
    return ttlMs > 0 && (await this.store.set(storeKeys.sandboxLogin(attemptId), '1', { ttlMs, nx: true }));
  }
}
