/**
 * As close to a power cut as a test gets (issue 40): the embedded store takes steady writes from
 * 16 concurrent writers (each step an atomic one over a string, a hash and a sorted set), and at an
 * arbitrary instant the data directory's files are copied as two crash images:
 *
 * - the operating system's view (the database and the whole log, no `-shm`): what a killed process
 *   leaves. Every acknowledged step must be there.
 * - the disk's view at the last flush: the database and the log cut after the frames the last
 *   checkpoint flushed (its `log` count; the checkpointer flushes the log before folding it). This
 *   is what a power cut leaves on a disk that honours flushes. Every step acknowledged before that
 *   checkpoint started must be there, so every step acknowledged more than DATA_SYNC_MS before the
 *   cut (plus the flush itself).
 *
 * Both images must open, pass `PRAGMA integrity_check`, and hold each step whole or not at all.
 */
import { copyFileSync, mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, SqliteStore } from '../../src/store/index.js';
import type { Checkpoint } from '../../src/store/sqlite-database.js';

const SYNC_MS = 150;
const WRITERS = 16;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

interface Ack {
  i: number;
  at: number;
}

/** What a crash image holds of step i: all of its three writes, none, or (a failure) some. */
function stepsIn(dir: string, count: number): Map<number, 'all' | 'none' | 'some'> {
  const db = new Database(join(dir, DATABASE_FILE));
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  const str = db.prepare('SELECT count(*) FROM keys WHERE k = ?').pluck();
  const field = db.prepare("SELECT count(*) FROM hash WHERE k = 'pc:h' AND f = ?").pluck();
  const member = db.prepare("SELECT count(*) FROM zset WHERE k = 'pc:z' AND m = ?").pluck();
  const out = new Map<number, 'all' | 'none' | 'some'>();
  for (let i = 0; i < count; i++) {
    const n =
      (str.get(`pc:s:${i}`) as number) + (field.get(String(i)) as number) + (member.get(String(i)) as number);
    out.set(i, n === 3 ? 'all' : n === 0 ? 'none' : 'some');
  }
  db.close();
  return out;
}

describe('the embedded store at a power cut', () => {
  const dirs: string[] = [];
  const tempDir = (name: string) => {
    const d = mkdtempSync(join(tmpdir(), `ivr-power-cut-${name}-`));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('when the files are copied at an arbitrary instant under writes, then both crash images open intact with every step whole and every flushed step present', async () => {
    const dir = tempDir('live');
    const store = await SqliteStore.open({ dir, syncMs: SYNC_MS });
    const acks: Ack[] = [];
    let next = 0;
    let stop = false;
    const payload = 'x'.repeat(700);
    const writers = Array.from({ length: WRITERS }, async () => {
      while (!stop) {
        const i = next++;
        const r = await store.atomic([
          { op: 'set', key: `pc:s:${i}`, value: `${i}:${payload}` },
          { op: 'hset', key: 'pc:h', fields: { [String(i)]: payload } },
          { op: 'zadd', key: 'pc:z', member: String(i), score: i },
        ]);
        expect(r.ok).toBe(true);
        acks.push({ i, at: Date.now() });
      }
    });

    // an arbitrary instant, right after a checkpoint answered (so that none runs while the files are copied)
    const seen = new Set<Checkpoint>();
    let checkpoint: Checkpoint | undefined;
    const wanted = 2 + Math.floor(Math.random() * 4);
    while (seen.size < wanted) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      const c = store.database.lastCheckpoint();
      if (c && !seen.has(c)) {
        seen.add(c);
        checkpoint = c;
      }
    }
    // synchronous from here: no step commits while the files are copied
    const osImage = tempDir('os');
    const diskImage = tempDir('disk');
    const copiedAt = Date.now();
    const ackedBeforeCopy = acks.length;
    for (const image of [osImage, diskImage]) {
      copyFileSync(join(dir, DATABASE_FILE), join(image, DATABASE_FILE));
      copyFileSync(join(dir, `${DATABASE_FILE}-wal`), join(image, `${DATABASE_FILE}-wal`));
    }
    const pageSize = store.database.db.pragma('page_size', { simple: true }) as number;
    stop = true;
    await Promise.all(writers);
    await store.close();

    expect(checkpoint!.error).toBeUndefined();
    expect(checkpoint!.mode).toBe('PASSIVE');
    // the disk's view: the log as far as the last checkpoint flushed it
    const flushedBytes = WAL_HEADER + checkpoint!.log! * (FRAME_HEADER + pageSize);
    const wal = join(diskImage, `${DATABASE_FILE}-wal`);
    expect(statSync(wal).size).toBeGreaterThanOrEqual(flushedBytes);
    const fd = openSync(wal, 'r+');
    ftruncateSync(fd, flushedBytes);
    closeSync(fd);

    const count = next;
    const inOs = stepsIn(osImage, count);
    const inDisk = stepsIn(diskImage, count);
    expect([...inOs.values()].filter((v) => v === 'some')).toEqual([]);
    expect([...inDisk.values()].filter((v) => v === 'some')).toEqual([]);
    const acked = acks.slice(0, ackedBeforeCopy);
    expect(acked.length).toBeGreaterThan(WRITERS);
    // a killed process: every acknowledged step
    expect(acked.filter((a) => inOs.get(a.i) !== 'all')).toEqual([]);
    // a power cut: every step acknowledged before the flush began (so more than SYNC_MS before the cut)
    const flushed = acked.filter((a) => a.at < checkpoint!.startedAt);
    expect(flushed.length).toBeGreaterThan(0);
    expect(flushed.filter((a) => inDisk.get(a.i) !== 'all')).toEqual([]);
    expect(acked.filter((a) => a.at < copiedAt - SYNC_MS - 1_000 && inDisk.get(a.i) !== 'all')).toEqual([]);
  }, 60_000);
});
