/**
 * The audit trail in the store: one sorted set of entries (JSON, each with a unique id) scored by
 * their time, in its own slot; an entry is added and the entries past the retention are removed in
 * one atomic step. The retention setting is one key beside it.
 */
import { storeKeys, type Store } from '../store/index.js';
import { DEFAULT_RETENTION_DAYS, type AuditEntry, type AuditSettings } from './audit-schemas.js';

export class AuditRepository {
  constructor(private readonly store: Store) {}

  async add(entry: AuditEntry, atMs: number, keepAfterMs: number): Promise<void> {
    await this.store.atomic([
      { op: 'zadd', key: storeKeys.auditLog(), score: atMs, member: JSON.stringify(entry) },
      { op: 'zremrangebyscore', key: storeKeys.auditLog(), min: 0, max: keepAfterMs },
    ]);
  }

  /** Entries from `toMs` back to `fromMs`, newest first, `offset` and `count` of them. */
  async range(fromMs: number, toMs: number, offset: number, count: number): Promise<AuditEntry[]> {
    const found = await this.store.zrangeByScore(storeKeys.auditLog(), fromMs, toMs, {
      rev: true,
      offset,
      count,
    });
    return found.map((m) => JSON.parse(m.member) as AuditEntry);
  }

  async settings(): Promise<AuditSettings> {
    const raw = await this.store.get(storeKeys.auditSettings());
    return raw ? (JSON.parse(raw) as AuditSettings) : { retentionDays: DEFAULT_RETENTION_DAYS };
  }

  async saveSettings(settings: AuditSettings, keepAfterMs: number): Promise<void> {
    await this.store.atomic([
      { op: 'set', key: storeKeys.auditSettings(), value: JSON.stringify(settings) },
      { op: 'zremrangebyscore', key: storeKeys.auditLog(), min: 0, max: keepAfterMs },
    ]);
  }
}
