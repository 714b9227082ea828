/**
 * The memory store's keys: one map of typed entries under the store's prefix, with lazy expiry (an
 * expired entry is dropped when next read) and a sweep for those never read again. Reading a key
 * as the wrong kind throws WRONGTYPE, as Redis does.
 */
import type { StreamEntry } from './store-port.js';

/** A stream: its entries in id order and the parts of the latest id. */
export interface MemoryStream {
  entries: StreamEntry[];
  ms: number;
  seq: number;
}
type Value = string | Map<string, string> | Map<string, number> | Set<string> | string[] | MemoryStream;
export interface Entry {
  kind: 'string' | 'hash' | 'zset' | 'set' | 'list' | 'stream';
  value: Value;
  expiresAt?: number;
}

export class MemoryKeyspace {
  private readonly data = new Map<string, Entry>();

  constructor(private readonly prefix = '') {}

  private k(key: string): string {
    return this.prefix + key;
  }

  /** The entry of `key`, unless absent or expired (then dropped). */
  live(key: string): Entry | undefined {
    const e = this.data.get(this.k(key));
    if (!e) return undefined;
    if (e.expiresAt !== undefined && e.expiresAt <= Date.now()) {
      this.data.delete(this.k(key));
      return undefined;
    }
    return e;
  }

  /** The live entry of `key`; throws WRONGTYPE when it holds another kind. */
  typed(key: string, kind: Entry['kind']): Entry | undefined {
    const e = this.live(key);
    if (e && e.kind !== kind) throw new Error(`WRONGTYPE ${key} holds a ${e.kind}`);
    return e;
  }

  /** The entry of `key` as `kind`, made empty when absent. */
  ensure(key: string, kind: 'hash' | 'zset' | 'set' | 'list' | 'stream'): Entry {
    let e = this.typed(key, kind);
    if (!e) {
      e = {
        kind,
        value:
          kind === 'set'
            ? new Set<string>()
            : kind === 'list'
              ? []
              : kind === 'stream'
                ? { entries: [], ms: 0, seq: 0 }
                : new Map(),
      };
      this.data.set(this.k(key), e);
    }
    return e;
  }

  setString(key: string, value: string, ttlMs?: number): void {
    this.data.set(this.k(key), { kind: 'string', value, expiresAt: ttlMs ? Date.now() + ttlMs : undefined });
  }

  /** Drops `key` (expired or not); whether it was there. */
  delete(key: string): boolean {
    return this.data.delete(this.k(key));
  }

  /** Drops every key that starts with `prefix`; answers how many of them had not expired. */
  deletePrefix(prefix: string): number {
    const full = this.k(prefix);
    let n = 0;
    for (const key of [...this.data.keys()]) {
      if (!key.startsWith(full)) continue;
      const e = this.data.get(key)!;
      this.data.delete(key);
      if (e.expiresAt === undefined || e.expiresAt > Date.now()) n++;
    }
    return n;
  }

  /** Adds `by` to the integer string at `key` (0 when absent); keeps its expiry. */
  incr(key: string, by: number): number {
    const e = this.typed(key, 'string');
    const current = e ? Number(e.value) : 0;
    if (!Number.isInteger(current)) throw new Error(`ERR value of ${key} is not an integer`);
    const next = current + by;
    if (e) e.value = String(next);
    else this.data.set(this.k(key), { kind: 'string', value: String(next) });
    return next;
  }

  expire(key: string, ttlMs: number): void {
    const e = this.live(key);
    if (e) e.expiresAt = Date.now() + ttlMs;
  }

  sweep(): void {
    const now = Date.now();
    for (const [k, e] of this.data) if (e.expiresAt !== undefined && e.expiresAt <= now) this.data.delete(k);
  }
}
