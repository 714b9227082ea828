/**
 * The embedded store's read statements, prepared once per database: hashes, sets, sorted sets,
 * lists, streams and a key's size. The writes are sqlite-keyspace.ts's.
 */
import type { Database } from 'better-sqlite3';

export function prepareQueries(db: Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    hall: p('SELECT f, v FROM hash WHERE k = ?').raw(),
    members: p('SELECT m FROM sset WHERE k = ? ORDER BY m').pluck(),
    zasc: p(
      'SELECT m AS member, s AS score FROM zset WHERE k = ? AND s >= ? AND s <= ? ORDER BY s, m LIMIT ? OFFSET ?',
    ),
    zdesc: p(
      'SELECT m AS member, s AS score FROM zset WHERE k = ? AND s >= ? AND s <= ? ORDER BY s DESC, m DESC LIMIT ? OFFSET ?',
    ),
    zcount: p('SELECT count(*) FROM zset WHERE k = ? AND s >= ? AND s <= ?').pluck(),
    zcard: p('SELECT count(*) FROM zset WHERE k = ?').pluck(),
    zscore: p('SELECT s FROM zset WHERE k = ? AND m = ?').pluck(),
    zbelow: p('SELECT count(*) FROM zset WHERE k = ? AND (s < ? OR (s = ? AND m < ?))').pluck(),
    zdelBelow: p('DELETE FROM zset WHERE k = ? AND s <= ?'),
    zfrom: p('SELECT count(*) FROM zset WHERE k = ? AND s > ?').pluck(),
    lall: p('SELECT v FROM list WHERE k = ? ORDER BY i').pluck(),
    xafter: p(
      'SELECT ms, seq, f FROM stream WHERE k = ? AND (ms > ? OR (ms = ? AND seq > ?)) ORDER BY ms, seq LIMIT ?',
    ),
    size: p(`SELECT coalesce((SELECT length(v) FROM keys WHERE k = @k), 0)
      + coalesce((SELECT sum(length(f) + length(v) + 32) FROM hash WHERE k = @k), 0)
      + coalesce((SELECT sum(length(m) + 40) FROM zset WHERE k = @k), 0)
      + coalesce((SELECT sum(length(m) + 16) FROM sset WHERE k = @k), 0)
      + coalesce((SELECT sum(length(v) + 16) FROM list WHERE k = @k), 0)
      + coalesce((SELECT sum(length(f) + 32) FROM stream WHERE k = @k), 0)`).pluck(),
  };
}

export type SqliteQueries = ReturnType<typeof prepareQueries>;
