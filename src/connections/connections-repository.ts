/**
 * Model connections in the store: one JSON string per connection (`connection(id)`) and an index
 * sorted by creation time (`connectionIndex()`). Updates are compare-and-set on the stored string.
 */
import { storeKeys, type Store } from '../store/index.js';
import type { ConnectionRecord } from './connection-record.js';

export interface StoredVersion {
  record: ConnectionRecord;
  /** The exact stored string, the guard of a compare-and-set update. */
  raw: string;
}

export class ConnectionsRepository {
  constructor(private readonly store: Store) {}

  async create(rec: ConnectionRecord): Promise<void> {
    const created = await this.store.set(storeKeys.connection(rec.connectionId), JSON.stringify(rec), {
      nx: true,
    });
    if (!created) throw new Error('connection id collision');
    await this.store.atomic([
      {
        op: 'zadd',
        key: storeKeys.connectionIndex(),
        score: Date.parse(rec.createdOn),
        member: rec.connectionId,
      },
    ]);
  }

  async find(connectionId: string): Promise<StoredVersion | null> {
    const raw = await this.store.get(storeKeys.connection(connectionId));
    return raw === null ? null : { record: JSON.parse(raw) as ConnectionRecord, raw };
  }

  /** Replaces the record only if it still is `previous`; false when someone else changed it first. */
  async replace(previous: string, next: ConnectionRecord): Promise<boolean> {
    const key = storeKeys.connection(next.connectionId);
    const r = await this.store.atomic(
      [{ op: 'set', key, value: JSON.stringify(next) }],
      [{ key, equals: previous }],
    );
    return r.ok;
  }

  /** Number of indexed connections. */
  count(): Promise<number> {
    return this.store.zcard(storeKeys.connectionIndex());
  }

  /** Newest first; `count` omitted = all. */
  async listNewestFirst(offset = 0, count?: number): Promise<ConnectionRecord[]> {
    const stop = count === undefined ? -1 : offset + count - 1;
    const ids = await this.store.zrange(storeKeys.connectionIndex(), offset, stop, { rev: true });
    if (ids.length === 0) return [];
    const raws = await this.store.mget(ids.map((x) => storeKeys.connection(x.member)));
    return raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as ConnectionRecord);
  }
}
