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
  constructor(private readonly store: Store, private readonly sealer: Sealer) {}

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

  async save(rec: SandboxRecord): Promise<void> {
    await this.store.hset(storeKeys.sandbox(rec.streamId), {
      enabled: String(rec.enabled),
      phoneNumber: rec.phoneNumber,
      pin: this.sealer.seal(rec.pin),
      secret: this.sealer.seal(rec.secret),
      maxConcurrentCalls: String(rec.maxConcurrentCalls),
    });
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

  /** A single-use login attempt id, so a captured PIN submission cannot be replayed. */
  async newAttempt(attemptId: string, ttlMs: number): Promise<void> {
    await this.store.set(storeKeys.sandboxLogin(attemptId), '1', { ttlMs });
  }

  async useAttempt(attemptId: string): Promise<boolean> {
    const key = storeKeys.sandboxLogin(attemptId);
    return (await this.store.atomic([{ op: 'del', key }], [{ key, equals: '1' }])).ok;
  }
}
