/**
 * Console sessions in the store, under the SHA-256 of their id (a copy of the store does not hold
 * usable cookies), with the session's lifetime as the key's TTL: they work across instances and
 * expire on their own.
 */
import { sha256 } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';
import type { ConsoleSessionRecord } from './console-schemas.js';

export class ConsoleRepository {
  constructor(private readonly store: Store) {}

  async save(sessionId: string, rec: ConsoleSessionRecord, ttlMs: number): Promise<void> {
    await this.store.set(storeKeys.consoleSession(sha256(sessionId)), JSON.stringify(rec), { ttlMs });
  }

  async find(sessionId: string): Promise<ConsoleSessionRecord | null> {
    const raw = await this.store.get(storeKeys.consoleSession(sha256(sessionId)));
    return raw ? (JSON.parse(raw) as ConsoleSessionRecord) : null;
  }

  async remove(sessionId: string): Promise<void> {
    await this.store.del([storeKeys.consoleSession(sha256(sessionId))]);
  }
}
