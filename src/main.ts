/**
 * Composes the service from the environment and listens; with an OTLP endpoint configured, starts
 * OpenTelemetry first. SIGTERM/SIGINT: stop accepting, let in-flight requests finish (bounded by
 * SHUTDOWN_GRACE_MS), stop background work, close the store, export the spans still queued.
 */
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { composeGateway } from './compose.js';
import {
  ConfigError,
  createLogger,
  createMetrics,
  loadConfig,
  startTelemetry,
  type Config,
  type Logger,
} from './platform/index.js';
import {
  MemoryStore,
  RedisStore,
  EmbeddedStore,
  keptAdminToken,
  keptMasterKey,
  type Store,
} from './store/index.js';
import { callEnded } from './ivr/index.js';

/** The Redis URLs for a message: passwords masked. */
const shownRedisUrl = (urls: string): string =>
  urls
    .split(',')
    .map((u) => {
      try {
        const p = new URL(u.trim());
        if (p.password) p.password = '***';
        return p.toString();
      } catch {
        return '(invalid URL)';
      }
    })
    .join(',');

/**
 * The embedded store of DATA_DIR, and the config with what it keeps: the sealing key (unless
 * MASTER_KEY is set) and the admin token made on first start (unless ADMIN_TOKEN is set).
 */
async function openEmbedded(
  config: Config,
  logger: Logger,
): Promise<{ store: EmbeddedStore; config: Config; tokenNote: string }> {
  const store = await EmbeddedStore.open({
    dir: config.dataDir,
    prefix: config.keyPrefix,
    syncMs: config.dataSyncMs,
    // without its thread the service can answer nothing: stop, for the supervisor to start it again
    onFailure: (err) => {
      logger.fatal({ err: { message: err.message } }, 'the embedded store stopped');
      process.exit(1);
    },
  });
  const { backup, foundVersion } = store.database;
  if (backup)
    logger.warn(
      { file: store.database.file, from: foundVersion, copy: backup },
      'data directory migrated to this version; the copy keeps the old one',
    );
  const masterKey = config.masterKeyGenerated ? keptMasterKey(config.dataDir) : config.masterKey;
  let next: Config = { ...config, masterKey, masterKeyGenerated: false };
  let tokenNote = ' admin token: from ADMIN_TOKEN';
  if (config.adminTokenGenerated) {
    const kept = await keptAdminToken(store, masterKey, config.adminToken);
    next = { ...next, adminToken: kept.token };
    tokenNote = kept.created
      ? ` admin token (shown this once; \`npm run data -- admin-token\` shows it again): ${kept.token}`
      : ' admin token: the one made on first start (`npm run data -- admin-token` shows it)';
  }
  return { store, config: next, tokenNote };
}

async function openStore(config: Config, logger: Logger): Promise<Store> {
  if (config.store === 'memory')
    return new MemoryStore(config.keyPrefix, {
      calls: { maxCalls: config.memoryStoreMaxCalls, isFinished: callEnded },
    });
  let lastLogged = 0;
  const connecting = RedisStore.connect({
    url: config.redisUrl,
    cluster: config.redisCluster,
    prefix: config.keyPrefix,
    onError: (err) => {
      const now = Date.now();
      if (now - lastLogged > 5_000) {
        lastLogged = now;
        logger.warn({ err: { message: err.message } }, 'redis connection problem');
      }
    },
  });
  // at start-up an unreachable Redis stops the process (its supervisor restarts it) with a clear reason
  return connecting.catch((err: unknown) => {
    throw new Error(
      `cannot connect to Redis at ${shownRedisUrl(config.redisUrl)}: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel });
  // off by default: without an endpoint the SDK is not even loaded, and the API stays a no-op
  const telemetry = config.telemetry
    ? await startTelemetry({ ...config.telemetry, instanceId: config.instanceId })
    : undefined;
  let store: Store;
  let tokenNote = config.adminTokenGenerated
    ? ` admin token: ${config.adminToken}`
    : ' admin token: from ADMIN_TOKEN';
  if (config.store === 'embedded') {
    const opened = await openEmbedded(config, logger);
    ({ store, config, tokenNote } = opened);
  } else {
    if (config.masterKeyGenerated)
      logger.warn(
        'MASTER_KEY is not set: a random key is used, so sealed secrets will not survive a restart',
      );
    store = await openStore(config, logger);
  }
  const gateway = composeGateway({ config, store, logger, metrics: createMetrics({ defaultMetrics: true }) });
  await gateway.start();

  const server = gateway.app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const addr = server.address() as AddressInfo;
  const shown =
    config.publicBaseUrl ??
    `http://${addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address}:${addr.port}`;
  const where = {
    embedded: `store: embedded, data kept in ${resolve(config.dataDir)}`,
    memory: 'store: memory, NOTHING IS KEPT when the process ends (STORE=memory: tests and throwaway runs)',
    redis: 'store: redis',
  }[config.store];
  process.stdout.write(`IVR gateway listening on ${shown} (${where}).${tokenNote}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
    timer.unref();
    await closed;
    // a store that is unreachable at this moment must not keep the process from exiting
    await gateway
      .stop()
      .catch((err: unknown) => logger.warn({ err }, 'background work did not stop cleanly'));
    await store.close();
    await telemetry
      ?.shutdown()
      .catch((err: unknown) => logger.warn({ err }, 'spans not exported at shutdown'));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
