/**
 * The embedded store's SQLite file (better-sqlite3): opening it under a data directory, its schema
 * and the version it carries (`PRAGMA user_version`), migrations of an older file in place (a copy
 * of it kept first), refusal of a newer one, and the durability setting (see docs/storage.md):
 * WAL with `synchronous=NORMAL`, so a commit is in the operating system's hands before it is
 * answered (a killed process loses nothing), and the WAL is flushed to the disk every second off
 * the event loop (a power cut loses at most the commits of the last flush interval).
 */
import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
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

/** The schema version this service writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export class NewerDataError extends Error {
  constructor(readonly file: string, readonly found: number) {
    super(`the data in ${file} has schema version ${found}, newer than this service's ${SCHEMA_VERSION}: upgrade the service (or point DATA_DIR at another directory); the file was not changed`);
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
  /** Flushes the WAL to the disk every `syncMs`, off the event loop; stop it before closing. */
  startSync(syncMs: number): void;
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

  let timer: NodeJS.Timeout | undefined;
  let wal: FileHandle | undefined;
  let flushing: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    wal ??= await open(`${file}-wal`, 'r+').catch(() => undefined);
    await wal?.datasync();
  };
  return {
    db,
    file,
    foundVersion: found,
    ...(backup ? { backup } : {}),
    startSync(syncMs) {
      timer = setInterval(() => {
        flushing = flushing.then(flush).catch(() => undefined);
      }, syncMs);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await flushing;
      await wal?.close().catch(() => undefined);
      if (db.open) {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
    },
  };
}
