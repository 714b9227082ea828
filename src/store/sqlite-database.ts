/**
 * The embedded store's SQLite file (better-sqlite3): opening it under a data directory, its schema
 * and the version it carries (`PRAGMA user_version`), migrations of an older file in place (a copy
 * of it kept first), refusal of a newer one, and the durability setting (see docs/storage.md):
 * WAL with `synchronous=NORMAL`, so a commit is in the operating system's hands before it is
 * answered (a killed process loses nothing). The log is folded into the database by a checkpointer
 * on a worker thread of its own connection every `syncMs` (never by a commit on the event loop);
 * each checkpoint first flushes the log to the disk, so a power cut loses at most the commits of
 * the last interval (plus one flush in progress).
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export type SqliteDb = Database.Database;

/** The file of the store inside a data directory. */
export const DATABASE_FILE = 'gateway.sqlite';

/**
 * The schema, one step per version: step i takes a file from version i to i+1. A released step is
 * never edited; a change of schema is a new step (and the version this service writes goes up).
 */
const MIGRATIONS: ReadonlyArray<readonly string[]> = [
  [
    'CREATE TABLE keys (k TEXT PRIMARY KEY, kind TEXT NOT NULL, v TEXT, exp INTEGER) WITHOUT ROWID',
    'CREATE TABLE hash (k TEXT NOT NULL, f TEXT NOT NULL, v TEXT NOT NULL, PRIMARY KEY (k, f)) WITHOUT ROWID',
    'CREATE TABLE zset (k TEXT NOT NULL, m TEXT NOT NULL, s REAL NOT NULL, PRIMARY KEY (k, m)) WITHOUT ROWID',
    'CREATE TABLE sset (k TEXT NOT NULL, m TEXT NOT NULL, PRIMARY KEY (k, m)) WITHOUT ROWID',
    'CREATE TABLE list (k TEXT NOT NULL, i INTEGER NOT NULL, v TEXT NOT NULL, PRIMARY KEY (k, i)) WITHOUT ROWID',
    'CREATE TABLE stream (k TEXT NOT NULL, ms INTEGER NOT NULL, seq INTEGER NOT NULL, f TEXT NOT NULL, PRIMARY KEY (k, ms, seq)) WITHOUT ROWID',
    'CREATE TABLE meta (name TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID',
  ],
  [
    // ranges by score and the sweep of expired keys without a scan of the whole table
    'CREATE INDEX zset_by_score ON zset (k, s, m)',
    'CREATE INDEX keys_by_expiry ON keys (exp) WHERE exp IS NOT NULL',
  ],
];

/**
 * The event loop's connection: pages cached in the process (32 MB) and read through a memory map
 * (256 MB), temporary tables in memory, and no checkpoint run by a commit (the checkpointer's job).
 */
const PRAGMAS = [
  'cache_size = -32768',
  'mmap_size = 268435456',
  'temp_store = MEMORY',
  'wal_autocheckpoint = 0',
  `journal_size_limit = ${64 * 1024 * 1024}`,
];

/** A log past this size is folded with RESTART (writers wait for it) so that it starts over. */
const RESTART_WAL_BYTES = 64 * 1024 * 1024;

/**
 * The checkpointer, run on a worker thread (plain CommonJS: it runs the same from the sources under
 * tsx or vitest and from dist). Its connection folds the log into the database every `syncMs`
 * (PASSIVE: it never blocks the event loop's writes; with synchronous=NORMAL it flushes the log to
 * the disk first, then the database after). Under steady writes a PASSIVE checkpoint never catches
 * up with the end of the log, so the log never starts over: once it is past `restartBytes`, a
 * RESTART follows the PASSIVE one (writers wait while it folds the few frames committed meanwhile;
 * hence `BEGIN IMMEDIATE` in the store, which waits on the busy timeout instead of failing).
 * Answers each checkpoint with the time it started (what is on the disk: every commit before it).
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
const walBytes = () => { try { return statSync(workerData.file + '-wal').size; } catch { return 0; } };
const run = (mode) => {
  const startedAt = Date.now();
  try {
    const [r] = db.pragma('wal_checkpoint(' + mode + ')');
    parentPort.postMessage({ startedAt, mode, busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ startedAt, mode, error: String(err) });
  }
};
const checkpoint = () => {
  run('PASSIVE');
  // what is left to fold is then only what was committed during that checkpoint: a short wait
  if (walBytes() > workerData.restartBytes) run('RESTART');
};
const timer = setInterval(checkpoint, workerData.syncMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

/** What the checkpointer answers after each checkpoint. */
export interface Checkpoint {
  /** When it started: every commit before it is on the disk (unless `error`). */
  startedAt: number;
  mode: 'PASSIVE' | 'RESTART';
  busy?: number;
  log?: number;
  checkpointed?: number;
  error?: string;
}

/** The schema version this service writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export class NewerDataError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
  ) {
    super(
      `the data in ${file} has schema version ${found}, newer than this service's ${SCHEMA_VERSION}: upgrade the service (or point DATA_DIR at another directory); the file was not changed`,
    );
    this.name = 'NewerDataError';
  }
}

export interface OpenedDatabase {
  db: SqliteDb;
  file: string;
  /** The version the file had before this opening (0: created now). */
  foundVersion: number;
  /** The copy kept before a migration, when one ran. */
  backup?: string;
  /** Starts the checkpointer (every `syncMs`, on a worker thread); close() stops it. */
  startSync(syncMs: number): void;
  /** The last checkpoint the checkpointer answered (none yet: undefined). */
  lastCheckpoint(): Checkpoint | undefined;
  close(): Promise<void>;
}

/**
 * Opens (creating when absent) the store's file under `dir`, migrated to `upTo` (this service's
 * version; tests build older files with a lower one). Throws NewerDataError for a newer file.
 */
export async function openDatabase(dir: string, upTo = SCHEMA_VERSION): Promise<OpenedDatabase> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, DATABASE_FILE);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // chosen by measurement (docs/benchmarks.md, "Embedded store (issue 40)")
  for (const pragma of PRAGMAS) db.pragma(pragma);
  const found = db.pragma('user_version', { simple: true }) as number;
  if (found > SCHEMA_VERSION) {
    db.close();
    throw new NewerDataError(file, found);
  }
  let backup: string | undefined;
  if (found > 0 && found < upTo) {
    backup = join(dir, `${DATABASE_FILE}.v${found}-${new Date().toISOString().replace(/[:.]/g, '-')}.bak`);
    await db.backup(backup);
  }
  for (let v = found; v < upTo; v++) {
    db.transaction(() => {
      for (const sql of MIGRATIONS[v]!) db.exec(sql);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  // a flush now makes the migration (or the new file) durable before anything is answered
  db.pragma('wal_checkpoint(TRUNCATE)');

  let worker: Worker | undefined;
  let last: Checkpoint | undefined;
  return {
    db,
    file,
    foundVersion: found,
    ...(backup ? { backup } : {}),
    startSync(syncMs) {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      worker = new Worker(CHECKPOINTER, {
        eval: true,
        workerData: { driver, file, syncMs, restartBytes: RESTART_WAL_BYTES },
      });
      worker.on('message', (m: Checkpoint | { stopped: true }) => {
        if ('startedAt' in m) last = m;
      });
      worker.unref();
    },
    lastCheckpoint: () => last,
    async close() {
      if (worker) {
        const w = worker;
        worker = undefined;
        const stopped = new Promise<void>((resolve) => {
          w.on('message', (m: { stopped?: true }) => m.stopped && resolve());
          w.once('exit', () => resolve());
          w.once('error', () => resolve());
        });
        w.ref(); // waited for now: keeps the process alive until it has stopped
        w.postMessage('stop');
        await stopped;
        await w.terminate();
      }
      if (db.open) {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
    },
  };
}
