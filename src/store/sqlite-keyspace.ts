/**
 * The embedded store's keys on SQLite: one row per key in `keys` (its kind, a string's value, its
 * expiry) and the members of hashes, sorted sets, sets, lists and streams in a table per kind.
 * Expiry is lazy (an expired key is dropped when next read) with a sweep for those never read
 * again; reading a key as the wrong kind throws WRONGTYPE, as Redis does. Each WriteOp of the port
 * is applied here as the Redis command of the same name does it; the caller wraps the ops of one
 * step in one transaction. Every statement is prepared once.
 */
import type { SqliteDb } from './sqlite-database.js';
import type { WriteOp } from './store-port.js';

export type Kind = 'string' | 'hash' | 'zset' | 'set' | 'list' | 'stream';
export interface KeyRow {
  kind: Kind;
  v: string | null;
  exp: number | null;
}

const MEMBER_TABLE: Record<Exclude<Kind, 'string'>, string> = {
  hash: 'hash',
  zset: 'zset',
  set: 'sset',
  list: 'list',
  stream: 'stream',
};

/** The highest key that starts with a prefix sorts below prefix + this (BINARY collation, UTF-8). */
const TOP = '\u{10FFFF}';

function statements(db: SqliteDb) {
  const p = (sql: string) => db.prepare(sql);
  const purge: Record<string, ReturnType<SqliteDb['prepare']>> = {};
  for (const [kind, table] of Object.entries(MEMBER_TABLE))
    purge[kind] = p(`DELETE FROM ${table} WHERE k = ?`);
  return {
    purge,
    key: p('SELECT kind, v, exp FROM keys WHERE k = ?'),
    putKey: p(
      'INSERT INTO keys (k, kind, v, exp) VALUES (?, ?, ?, ?) ON CONFLICT (k) DO UPDATE SET kind = excluded.kind, v = excluded.v, exp = excluded.exp',
    ),
    setValue: p('UPDATE keys SET v = ? WHERE k = ?'),
    setExp: p('UPDATE keys SET exp = ? WHERE k = ?'),
    delKey: p('DELETE FROM keys WHERE k = ?'),
    expired: p('SELECT k, kind FROM keys WHERE exp IS NOT NULL AND exp <= ? LIMIT 500'),
    prefixed: p('SELECT k, kind, exp FROM keys WHERE k >= ? AND k < ?'),
    hput: p('INSERT INTO hash (k, f, v) VALUES (?, ?, ?) ON CONFLICT (k, f) DO UPDATE SET v = excluded.v'),
    hget: p('SELECT v FROM hash WHERE k = ? AND f = ?').pluck(),
    hdel: p('DELETE FROM hash WHERE k = ? AND f = ?'),
    hcount: p('SELECT count(*) FROM (SELECT 1 FROM hash WHERE k = ? LIMIT 1)').pluck(),
    zput: p('INSERT INTO zset (k, m, s) VALUES (?, ?, ?) ON CONFLICT (k, m) DO UPDATE SET s = excluded.s'),
    zdel: p('DELETE FROM zset WHERE k = ? AND m = ?'),
    zcount: p('SELECT count(*) FROM (SELECT 1 FROM zset WHERE k = ? LIMIT 1)').pluck(),
    zdelRange: p('DELETE FROM zset WHERE k = ? AND s >= ? AND s <= ?'),
    sput: p('INSERT INTO sset (k, m) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    sdel: p('DELETE FROM sset WHERE k = ? AND m = ?'),
    scount: p('SELECT count(*) FROM (SELECT 1 FROM sset WHERE k = ? LIMIT 1)').pluck(),
    lmax: p('SELECT max(i) FROM list WHERE k = ?').pluck(),
    lput: p('INSERT INTO list (k, i, v) VALUES (?, ?, ?)'),
    ltrim: p('DELETE FROM list WHERE k = ? AND i <= ?'),
    xput: p('INSERT INTO stream (k, ms, seq, f) VALUES (?, ?, ?, ?)'),
    xcount: p('SELECT count(*) FROM stream WHERE k = ?').pluck(),
    xtrim: p(
      'DELETE FROM stream WHERE k = ? AND (ms, seq) IN (SELECT ms, seq FROM stream WHERE k = ? ORDER BY ms, seq LIMIT ?)',
    ),
  };
}

export class SqliteKeyspace {
  readonly sql: ReturnType<typeof statements>;
  /** Per stream (full key), its adds since its entries were last counted (see trimStream). */
  private readonly addsSinceTrim = new Map<string, number>();

  constructor(
    readonly db: SqliteDb,
    private readonly prefix: string,
    /** Hears each entry added to a stream (after its step commits). */
    private readonly onAdded: (key: string) => void,
  ) {
    this.sql = statements(db);
  }

  k(key: string): string {
    return this.prefix + key;
  }

  /** The row of `key` (a logical key), unless absent or expired (then dropped). */
  live(key: string): KeyRow | undefined {
    const full = this.k(key);
    const row = this.sql.key.get(full) as KeyRow | undefined;
    if (!row) return undefined;
    if (row.exp !== null && row.exp <= Date.now()) {
      this.dropFull(full, row.kind);
      return undefined;
    }
    return row;
  }

  /** The live row of `key`; throws WRONGTYPE when it holds another kind. */
  typed(key: string, kind: Kind): KeyRow | undefined {
    const row = this.live(key);
    if (row && row.kind !== kind) throw new Error(`WRONGTYPE ${key} holds a ${row.kind}`);
    return row;
  }

  /** Makes `key` a `kind` (empty) when absent; throws WRONGTYPE when it holds another kind. */
  ensure(key: string, kind: Exclude<Kind, 'string'>): KeyRow {
    const row = this.typed(key, kind);
    if (row) return row;
    this.sql.putKey.run(this.k(key), kind, null, null);
    return { kind, v: null, exp: null };
  }

  private dropFull(full: string, kind: Kind): void {
    this.sql.delKey.run(full);
    if (kind !== 'string') this.sql.purge[kind]!.run(full);
  }

  /** Drops `key` (expired or not); whether it was there. */
  drop(key: string): boolean {
    const full = this.k(key);
    const row = this.sql.key.get(full) as KeyRow | undefined;
    if (!row) return false;
    this.dropFull(full, row.kind);
    return true;
  }

  /** Drops a collection once its last member is gone, as Redis does. */
  private dropIfEmpty(key: string, count: { get(k: string): unknown }): void {
    if ((count.get(this.k(key)) as number) === 0) this.drop(key);
  }

  setString(key: string, value: string, ttlMs?: number): void {
    const full = this.k(key);
    const row = this.sql.key.get(full) as KeyRow | undefined;
    if (row && row.kind !== 'string') this.sql.purge[row.kind]!.run(full);
    this.sql.putKey.run(full, 'string', value, ttlMs ? Date.now() + ttlMs : null);
  }

  /** Adds `by` to the integer string at `key` (0 when absent); keeps its expiry. */
  incr(key: string, by: number): number {
    const row = this.typed(key, 'string');
    const current = row ? Number(row.v) : 0;
    if (!Number.isInteger(current)) throw new Error(`ERR value of ${key} is not an integer`);
    const next = current + by;
    if (row) this.sql.setValue.run(String(next), this.k(key));
    else this.sql.putKey.run(this.k(key), 'string', String(next), null);
    return next;
  }

  expire(key: string, ttlMs: number): void {
    if (this.live(key)) this.sql.setExp.run(Date.now() + ttlMs, this.k(key));
  }

  /** Drops every key that starts with `prefix`; answers how many of them had not expired. */
  deletePrefix(prefix: string): number {
    const full = this.k(prefix);
    const now = Date.now();
    let n = 0;
    for (const row of this.sql.prefixed.all(full, full + TOP) as Array<KeyRow & { k: string }>) {
      this.dropFull(row.k, row.kind);
      if (row.exp === null || row.exp > now) n++;
    }
    return n;
  }

  /** Drops expired keys, a batch at a time; answers how many. */
  sweep(): number {
    const rows = this.sql.expired.all(Date.now()) as Array<{ k: string; kind: Kind }>;
    for (const row of rows) this.dropFull(row.k, row.kind);
    return rows.length;
  }

  /**
   * Trims a stream to `maxLen` entries once every `maxLen / 100` adds (at least every add), as
   * Redis's `MAXLEN ~` keeps about that many: counting the entries is a walk of the whole stream
   * (the inspector's feed keeps 10,000), too dear for every add. The adds since the last count are
   * counted in this process only: a restart or a rolled-back step only moves the next count.
   */
  private trimStream(full: string, maxLen: number): void {
    const adds = (this.addsSinceTrim.get(full) ?? 0) + 1;
    if (adds < Math.max(1, Math.floor(maxLen / 100))) {
      this.addsSinceTrim.set(full, adds);
      return;
    }
    this.addsSinceTrim.delete(full);
    const over = (this.sql.xcount.get(full) as number) - maxLen;
    if (over > 0) this.sql.xtrim.run(full, full, over);
  }

  /** Applies one WriteOp (inside the caller's transaction). */
  apply(op: WriteOp): void {
    const s = this.sql;
    const full = this.k(op.key);
    switch (op.op) {
      case 'set':
        this.setString(op.key, op.value, op.ttlMs);
        return;
      case 'del':
        this.drop(op.key);
        return;
      case 'hset':
        this.ensure(op.key, 'hash');
        for (const [f, v] of Object.entries(op.fields)) s.hput.run(full, f, v);
        return;
      case 'hdel':
        if (!this.typed(op.key, 'hash')) return;
        for (const f of op.fields) s.hdel.run(full, f);
        this.dropIfEmpty(op.key, s.hcount);
        return;
      case 'hincrby': {
        this.ensure(op.key, 'hash');
        const current = Number((s.hget.get(full, op.field) as string | undefined) ?? 0);
        s.hput.run(full, op.field, String(current + op.by));
        return;
      }
      case 'zadd':
        this.ensure(op.key, 'zset');
        s.zput.run(full, op.member, op.score);
        return;
      case 'zrem':
        if (!this.typed(op.key, 'zset')) return;
        s.zdel.run(full, op.member);
        this.dropIfEmpty(op.key, s.zcount);
        return;
      case 'sadd':
        this.ensure(op.key, 'set');
        s.sput.run(full, op.member);
        return;
      case 'srem':
        if (!this.typed(op.key, 'set')) return;
        s.sdel.run(full, op.member);
        this.dropIfEmpty(op.key, s.scount);
        return;
      case 'incrby':
        this.incr(op.key, op.by);
        return;
      case 'pexpire':
        this.expire(op.key, op.ttlMs);
        return;
      case 'rpush': {
        this.ensure(op.key, 'list');
        const last = ((s.lmax.get(full) as number | null) ?? 0) + 1;
        s.lput.run(full, last, op.value);
        s.ltrim.run(full, last - Math.max(1, Math.floor(op.keepLast)));
        return;
      }
      case 'zremrangebyscore':
        if (!this.typed(op.key, 'zset')) return;
        s.zdelRange.run(full, Math.max(op.min, -Number.MAX_VALUE), Math.min(op.max, Number.MAX_VALUE));
        this.dropIfEmpty(op.key, s.zcount);
        return;
      case 'xadd': {
        const row = this.ensure(op.key, 'stream');
        const [lastMs, lastSeq] = (row.v ?? '0-0').split('-').map(Number) as [number, number];
        const now = Date.now();
        const [ms, seq] = now > lastMs ? [now, 0] : [lastMs, lastSeq + 1];
        s.setValue.run(`${ms}-${seq}`, full);
        s.xput.run(full, ms, seq, JSON.stringify(op.fields));
        this.trimStream(full, Math.max(1, Math.floor(op.maxLen)));
        // woken after the step that added it (a reader never sees half of an atomic step)
        queueMicrotask(() => this.onAdded(op.key));
        return;
      }
    }
  }
}
