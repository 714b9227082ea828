/**
 * Export and import of the operators' configuration as versioned JSON (`npm run data`): every key
 * of apps, agents (definitions and trained models), IVR channels and settings, sandboxes, API apps
 * and keys, model connections, tables (definitions, rows, unique indexes), skill groups and test
 * suites, as each store holds it. Secrets go out as stored: sealed with the service's sealing key
 * (MASTER_KEY, or DATA_DIR/master.key) or hashed, never in the clear; the service that imports
 * needs the same sealing key to open them. Calls, history, traces, test runs, console sessions and
 * rate windows are not configuration and are left out. Works on the embedded store and on Redis.
 */
import { z } from 'zod';
import type { Store, WriteOp } from './store-port.js';

/** The version of the file format this service writes; it reads this one and older. */
export const EXPORT_VERSION = 1;
const FORMAT = 'ivr-gateway-data';

/** A store that can list its keys (the embedded store, Redis). */
export type ListableStore = Store & {
  listKeys(prefix: string): Promise<Array<{ key: string; kind: string }>>;
};

/** Keys that are configuration, outside apps' scopes. */
const GLOBAL =
  /^(apps:index|apikeys:index|conns:index|console:api-key|apiapp:\{|apikey:\{|ivr-client:\{|sandbox-number:\{|conn:\{|table:\{)/;
/** Inside an app's scope (`app:{a:<id>}:`), what is not configuration. */
const APP_RUNTIME =
  /^app:\{a:[^}]*\}:(calls|call:|call-feed|msg:|h:|hs:|h-session:|trace:|run:|runs|run-file:|run-rows:|suite-run:|agent-training)/;
const TABLE_RUNTIME = /^table:\{t:[^}]*\}:insert:/;

export const isConfigurationKey = (key: string): boolean =>
  (key.startsWith('app:{a:') && !APP_RUNTIME.test(key)) || (GLOBAL.test(key) && !TABLE_RUNTIME.test(key));

const entrySchema = z.discriminatedUnion('kind', [
  z.object({
    key: z.string(),
    kind: z.literal('string'),
    value: z.string(),
    ttlMs: z.number().int().positive().optional(),
  }),
  z.object({
    key: z.string(),
    kind: z.literal('hash'),
    value: z.record(z.string(), z.string()),
    ttlMs: z.number().int().positive().optional(),
  }),
  z.object({
    key: z.string(),
    kind: z.literal('zset'),
    value: z.array(z.object({ member: z.string(), score: z.number() })),
    ttlMs: z.number().int().positive().optional(),
  }),
  z.object({
    key: z.string(),
    kind: z.literal('set'),
    value: z.array(z.string()),
    ttlMs: z.number().int().positive().optional(),
  }),
  z.object({
    key: z.string(),
    kind: z.literal('list'),
    value: z.array(z.string()),
    ttlMs: z.number().int().positive().optional(),
  }),
]);
type Entry = z.infer<typeof entrySchema>;

export interface DataExport {
  format: typeof FORMAT;
  version: number;
  exportedAt: string;
  secrets: 'sealed';
  entries: Entry[];
}

export class DataFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFileError';
  }
}

async function readEntry(store: Store, key: string, kind: string): Promise<Entry | undefined> {
  const ttl = await store.pttl(key);
  const ttlMs = ttl > 0 ? { ttlMs: ttl } : {};
  switch (kind) {
    case 'string': {
      const value = await store.get(key);
      return value === null ? undefined : { key, kind, value, ...ttlMs };
    }
    case 'hash':
      return { key, kind, value: await store.hgetall(key), ...ttlMs };
    case 'zset':
      return { key, kind, value: await store.zrange(key, 0, -1), ...ttlMs };
    case 'set':
      return { key, kind, value: (await store.smembers(key)).sort(), ...ttlMs };
    case 'list':
      return { key, kind, value: await store.lrange(key, 0, -1), ...ttlMs };
    default:
      return undefined; // streams are live feeds, not configuration
  }
}

/** Every configuration key of `store`, in key order. */
export async function exportData(store: ListableStore): Promise<DataExport> {
  const keys = (await store.listKeys(''))
    .filter((k) => isConfigurationKey(k.key))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const entries: Entry[] = [];
  for (const { key, kind } of keys) {
    const entry = await readEntry(store, key, kind);
    if (entry) entries.push(entry);
  }
  return {
    format: FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    secrets: 'sealed',
    entries,
  };
}

/** Checks a parsed file: its format, a version this service reads, and each entry. */
export function parseExport(data: unknown): DataExport {
  const head = z.object({ format: z.string(), version: z.number().int() }).safeParse(data);
  if (!head.success || head.data.format !== FORMAT)
    throw new DataFileError(`not an export of this service (expected "format": "${FORMAT}")`);
  if (head.data.version > EXPORT_VERSION) {
    throw new DataFileError(
      `the file is export version ${head.data.version}, newer than this service reads (${EXPORT_VERSION}): import it with the newer service, or upgrade this one`,
    );
  }
  const body = z.object({ entries: z.array(entrySchema) }).safeParse(data);
  if (!body.success)
    throw new DataFileError(
      `the file's entries are not valid: ${body.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  return { ...(data as DataExport), entries: body.data.entries };
}

function writesOf(e: Entry): WriteOp[] {
  const ops: WriteOp[] = [{ op: 'del', key: e.key }];
  switch (e.kind) {
    case 'string':
      return [{ op: 'set', key: e.key, value: e.value, ...(e.ttlMs ? { ttlMs: e.ttlMs } : {}) }];
    case 'hash':
      if (Object.keys(e.value).length) ops.push({ op: 'hset', key: e.key, fields: e.value });
      break;
    case 'zset':
      for (const m of e.value) ops.push({ op: 'zadd', key: e.key, score: m.score, member: m.member });
      break;
    case 'set':
      for (const m of e.value) ops.push({ op: 'sadd', key: e.key, member: m });
      break;
    case 'list':
      for (const v of e.value) ops.push({ op: 'rpush', key: e.key, value: v, keepLast: e.value.length });
      break;
  }
  if (e.ttlMs) ops.push({ op: 'pexpire', key: e.key, ttlMs: e.ttlMs });
  return ops;
}

/** Writes every entry of a checked export into `store` (each key replaced whole, in one step). */
export async function importData(store: Store, data: DataExport): Promise<number> {
  for (const entry of data.entries) await store.atomic(writesOf(entry));
  return data.entries.length;
}
