/**
 * `npm run data -- <command>`: the operator's tool for the service's data, on the store the
 * environment selects (as `npm start` does: the embedded store of DATA_DIR, or REDIS_URL).
 *   export FILE     writes every app's configuration as versioned JSON (src/store/store-dump.ts)
 *   import FILE     writes such a file into the store (refuses a file from a newer version)
 *   admin-token     shows the admin token kept in DATA_DIR (made on the service's first start)
 * Exit codes: 0 done, 2 bad use or a refused file, 1 any other failure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './platform/index.js';
import {
  DataFileError,
  RedisStore,
  SqliteStore,
  exportData,
  importData,
  keptMasterKey,
  parseExport,
  readAdminToken,
  type ListableStore,
} from './store/index.js';

const USAGE = 'usage: npm run data -- export FILE | import FILE | admin-token';

class UsageError extends Error {}

async function openStore(config: Config): Promise<ListableStore> {
  if (config.store === 'memory')
    throw new UsageError(
      'STORE=memory keeps nothing to export or import into; use the embedded store (DATA_DIR) or REDIS_URL',
    );
  if (config.store === 'redis')
    return RedisStore.connect({
      url: config.redisUrl,
      cluster: config.redisCluster,
      prefix: config.keyPrefix,
    });
  return SqliteStore.open({ dir: config.dataDir, prefix: config.keyPrefix });
}

async function run(argv: string[]): Promise<string> {
  const [command, file] = argv;
  const config = loadConfig(process.env);
  if (command === 'admin-token') {
    if (config.store !== 'embedded')
      throw new UsageError(
        'the admin token is kept only by the embedded store; with Redis it is ADMIN_TOKEN',
      );
    const store = await SqliteStore.open({ dir: config.dataDir, prefix: config.keyPrefix });
    try {
      const token = await readAdminToken(
        store,
        config.masterKeyGenerated ? keptMasterKey(config.dataDir) : config.masterKey,
      );
      if (token === null)
        throw new UsageError(
          `no admin token is kept in ${config.dataDir} (the service has not started there, or ADMIN_TOKEN is set)`,
        );
      return token;
    } finally {
      await store.close();
    }
  }
  if ((command !== 'export' && command !== 'import') || !file) throw new UsageError(USAGE);
  const data =
    command === 'import' ? parseExport(JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
  const store = await openStore(config);
  try {
    if (data)
      return `imported ${await importData(store, data)} keys from ${file} into the ${config.store} store`;
    const out = await exportData(store);
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    return `exported ${out.entries.length} keys of the ${config.store} store to ${file} (version ${out.version}; secrets sealed)`;
  } finally {
    await store.close();
  }
}

run(process.argv.slice(2)).then(
  (message) => {
    process.stdout.write(`${message}\n`);
  },
  (err: unknown) => {
    const refused =
      err instanceof UsageError ||
      err instanceof DataFileError ||
      err instanceof ConfigError ||
      err instanceof SyntaxError;
    process.stderr.write(`data: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = refused ? 2 : 1;
  },
);
