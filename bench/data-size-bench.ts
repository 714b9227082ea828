/**
 * The embedded store's data directory per 10,000 calls (issue 40): the real service, in this
 * process, on a fresh DATA_DIR, plays the turn bench's call script (start → "book a table" → "4" →
 * "march third" → "yes" → end) through real HTTP, `CALLS_CONCURRENCY` calls at a time, with the
 * service's default settings (history, call traces with their documents, retention). Then it stops
 * the service cleanly (the log folded into the database) and prints the files' bytes, the bytes per
 * table (SQLite's dbstat) and the figure per 10,000 calls.
 *
 * It is also a small bench of the store under the turn: the wall time and the CPU time of this
 * process per call (the CPU time is the steadier on a shared machine), to set beside the same
 * script on the memory store (`--store memory`: no directory, the times only).
 *
 *   npm run bench:data-size                       10,000 calls on the embedded store
 *   npm run bench:data-size -- --calls 1000       fewer (the figure is then scaled to 10,000)
 *   npm run bench:data-size -- --store memory     the same calls on the memory store (time only)
 * Env: CALLS_CONCURRENCY (8), BENCH_KEEP_DATA (keep the directory to inspect).
 * One JSON line per 1,000 calls and a last `data-size` line.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { composeGateway } from '../src/compose.js';
import { createLogger, loadConfig } from '../src/platform/index.js';
import { EmbeddedStore, MemoryStore, type Store } from '../src/store/index.js';
import { playOnce } from './lib/call-script.js';
import { setupDemoApp } from './lib/operator-setup.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
};
const CALLS = Math.max(1, Math.floor(Number(arg('calls') ?? 10_000)));
const STORE = arg('store') ?? 'embedded';
if (STORE !== 'embedded' && STORE !== 'memory')
  throw new Error(`--store must be embedded or memory, not ${STORE}`);
const CONCURRENCY = Math.max(1, Math.floor(Number(process.env.CALLS_CONCURRENCY ?? 8)));
const line = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'ivr-data-size-'));
const adminToken = randomBytes(24).toString('base64url');
const config = loadConfig({
  ADMIN_TOKEN: adminToken,
  MASTER_KEY: randomBytes(32).toString('base64'),
  DATA_DIR: dataDir,
  STORE,
  BENCH_MODE: 'true',
  LOG_LEVEL: 'warn',
});
const store: Store =
  STORE === 'embedded'
    ? await EmbeddedStore.open({ dir: dataDir, prefix: config.keyPrefix, syncMs: config.dataSyncMs })
    : new MemoryStore();
const gateway = composeGateway({ config, store, logger: createLogger({ level: 'warn' }) });
await gateway.start();
const server = gateway.app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const app = await setupDemoApp(url, adminToken, 'data size');

let next = 0;
let done = 0;
let failed = 0;
const started = performance.now();
const cpuAtStart = process.cpuUsage();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < CALLS) {
      const i = next++;
      try {
        await playOnce(url, app.webhookPath, 'turn', `call-size-${i}-${randomBytes(4).toString('hex')}`);
      } catch (err) {
        // a turn past its deadline on a loaded machine: counted, and the size is per call attempted
        if (++failed <= 3) process.stderr.write(`call ${i} failed: ${String(err).slice(0, 300)}\n`);
      }
      if (++done % 1000 === 0)
        line({ calls: done, failed, elapsedS: Math.round((performance.now() - started) / 100) / 10 });
    }
  }),
);
const msPerCall = (performance.now() - started) / CALLS;
// this process's CPU time (service and callers both), per call: steadier than wall time on a shared machine
const cpu = process.cpuUsage(cpuAtStart);
const cpuMsPerCall = Math.round(((cpu.user + cpu.system) / 1000 / CALLS) * 100) / 100;

await gateway.stop();
server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await store.close();

if (STORE === 'memory') {
  line({
    summary: 'data-size',
    store: STORE,
    calls: CALLS,
    failed,
    concurrency: CONCURRENCY,
    msPerCall: Math.round(msPerCall * 100) / 100,
    cpuMsPerCall,
  });
} else {
  const files = readdirSync(dataDir).map((f) => ({ file: f, bytes: statSync(join(dataDir, f)).size }));
  const bytes = files.reduce((a, f) => a + f.bytes, 0);
  const db = new Database(join(dataDir, 'gateway.sqlite'), { readonly: true });
  // the pages of each table and index, and what the biggest kinds of key hold
  const tables = db
    .prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
    .all() as Array<{ name: string; bytes: number }>;
  const byKind = db
    .prepare(
      `SELECT kind, count(*) AS keys, sum(coalesce(length(v), 0) + length(k)) AS bytes FROM keys GROUP BY kind
       UNION ALL SELECT 'hash members', count(*), sum(length(k) + length(f) + length(v)) FROM hash
       UNION ALL SELECT 'zset members', count(*), sum(length(k) + length(m) + 8) FROM zset
       UNION ALL SELECT 'list items', count(*), sum(length(k) + length(v)) FROM list
       UNION ALL SELECT 'stream entries', count(*), sum(length(k) + length(f)) FROM stream`,
    )
    .all();
  // which key families hold the bytes (ids replaced by *)
  const families = new Map<string, number>();
  const add = (k: string, n: number) => {
    const family = k
      .replace(/(call-size-)[\w-]+/g, '$1*')
      .replace(/\b(ms|ss|tr|u|st)[0-9A-Za-z_-]{6,}/g, '$1*');
    families.set(family, (families.get(family) ?? 0) + n);
  };
  for (const r of db
    .prepare('SELECT k, coalesce(length(v), 0) + length(k) AS n FROM keys')
    .iterate() as Iterable<{ k: string; n: number }>)
    add(r.k, r.n);
  for (const r of db
    .prepare('SELECT k, sum(length(k) + length(f) + length(v)) AS n FROM hash GROUP BY k')
    .iterate() as Iterable<{ k: string; n: number }>)
    add(r.k, r.n);
  for (const r of db
    .prepare('SELECT k, sum(length(k) + length(m) + 8) AS n FROM zset GROUP BY k')
    .iterate() as Iterable<{ k: string; n: number }>)
    add(r.k, r.n);
  for (const r of db
    .prepare('SELECT k, sum(length(k) + length(v)) AS n FROM list GROUP BY k')
    .iterate() as Iterable<{ k: string; n: number }>)
    add(r.k, r.n);
  for (const r of db
    .prepare('SELECT k, sum(length(k) + length(f)) AS n FROM stream GROUP BY k')
    .iterate() as Iterable<{ k: string; n: number }>)
    add(r.k, r.n);
  db.close();
  const topFamilies = [...families]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([family, n]) => ({ family, bytes: n }));
  line({
    summary: 'data-size',
    store: STORE,
    calls: CALLS,
    failed,
    concurrency: CONCURRENCY,
    msPerCall: Math.round(msPerCall * 100) / 100,
    cpuMsPerCall,
    dataDir,
    files,
    bytes,
    bytesPerCall: Math.round(bytes / CALLS),
    bytesPer10kCalls: Math.round((bytes / CALLS) * 10_000),
    tables,
    byKind,
    topFamilies,
  });
}
if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
