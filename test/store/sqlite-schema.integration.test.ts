import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite-database.js';
import { DATABASE_FILE, NewerDataError, SCHEMA_VERSION, SqliteStore } from '../../src/store/index.js';

describe("the embedded store's schema version", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivr-schema-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('when a new directory is opened, then it is created at this version with no copy', async () => {
    const dir = fresh();
    const store = await SqliteStore.open({ dir: join(dir, 'nested') });
    expect(store.database.foundVersion).toBe(0);
    expect(store.database.backup).toBeUndefined();
    await store.close();
    const db = new Database(join(dir, 'nested', DATABASE_FILE), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('when an older directory is opened, then it is migrated in place, its data kept, and a copy of the old file kept', async () => {
    const dir = fresh();
    const old = await openDatabase(dir, 1);
    old.db
      .prepare("INSERT INTO keys (k, kind, v, exp) VALUES ('p:app:{a:x}:record', 'string', 'kept', NULL)")
      .run();
    await old.close();
    const store = await SqliteStore.open({ dir, prefix: 'p:' });
    expect(store.database.foundVersion).toBe(1);
    expect(await store.get('app:{a:x}:record')).toBe('kept');
    await store.atomic([
      { op: 'zadd', key: 'z', score: 2, member: 'b' },
      { op: 'zadd', key: 'z', score: 1, member: 'a' },
    ]);
    expect((await store.zrangeByScore('z', 0, 5)).map((m) => m.member)).toEqual(['a', 'b']);
    await store.close();
    const copies = readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.v1-`));
    expect(copies).toHaveLength(1);
    const copy = new Database(join(dir, copies[0]!), { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(1);
    expect(copy.prepare('SELECT v FROM keys').pluck().get()).toBe('kept');
    copy.close();
  });

  it('when a directory is newer than the service, then opening it fails with a clear error and leaves the file as it was', async () => {
    const dir = fresh();
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma(`user_version = ${SCHEMA_VERSION + 3}`);
    db.close();
    await expect(SqliteStore.open({ dir })).rejects.toThrow(NewerDataError);
    await expect(SqliteStore.open({ dir })).rejects.toThrow(
      `schema version ${SCHEMA_VERSION + 3}, newer than this service's ${SCHEMA_VERSION}`,
    );
    const again = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 3);
    again.close();
  });
});
