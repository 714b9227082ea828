/**
 * What the embedded store keeps beside its data under DATA_DIR, so that a restart finds the service
 * as it was: the sealing key (`master.key`, 0600, made on first start unless MASTER_KEY is set:
 * without it the secrets sealed in the data could not be opened) and the admin token generated on
 * first start (sealed with that key in the database; shown again by `npm run data -- admin-token`).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSealer } from '../platform/index.js';

export const MASTER_KEY_FILE = 'master.key';
const ADMIN_TOKEN = 'admin-token';

/** What the data directory keeps beside the port's keys (the embedded store, on its thread or not). */
export interface MetaKeeper {
  readMeta(name: string): Promise<string | null>;
  keepMeta(name: string, value: string): Promise<string>;
}

/** The sealing key kept in `dir` (made, readable by its owner only, when absent). */
export function keptMasterKey(dir: string): Buffer {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, MASTER_KEY_FILE);
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

/**
 * The admin token kept in the store (sealed with `masterKey`): the one made on first start, or
 * `fresh` when none is kept yet. `created` says this start made it (the only time it is printed).
 */
export async function keptAdminToken(
  store: MetaKeeper,
  masterKey: Buffer,
  fresh: string,
): Promise<{ token: string; created: boolean }> {
  const sealer = createSealer(masterKey);
  const sealed = sealer.seal(fresh);
  const kept = await store.keepMeta(ADMIN_TOKEN, sealed);
  return { token: sealer.open(kept), created: kept === sealed };
}

/** The admin token kept in the store, or null when the service generated none there. */
export async function readAdminToken(store: MetaKeeper, masterKey: Buffer): Promise<string | null> {
  const sealed = await store.readMeta(ADMIN_TOKEN);
  return sealed === null ? null : createSealer(masterKey).open(sealed);
}
