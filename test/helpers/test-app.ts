/**
 * Builds a real Express app for a component's tests: real store (memory or Redis), real auth, the
 * platform's parsers and error handler, plus the routes the test passes in. Requests go through
 * supertest (real HTTP) or `listen()` for a real port.
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import { buildApp } from '../../src/app.js';
import {
  createAuthenticator,
  createLogger,
  createMetrics,
  createSealer,
  signHs256,
  testConfig,
  type Config,
  type Logger,
  type Metrics,
  type RateLimiterFactory,
  type RouteDef,
  type Sealer,
} from '../../src/platform/index.js';
import { isStoreUnavailable, rateLimitersOf, type Store } from '../../src/store/index.js';
import { AppsService } from '../../src/admin/apps-service.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** A log destination that keeps every line, so tests can grep the log for secrets. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    cb();
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export interface ComponentDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  apps: AppsService;
  logger: Logger;
  metrics: Metrics;
  rateLimiters: RateLimiterFactory;
}

export interface TestApp extends ComponentDeps {
  app: Express;
  log: LogCapture;
  /** Creates an app (streamId) and an API app with the given scopes; returns a JWT signer. */
  createAppWithClient(scopes: string[]): Promise<{
    streamId: string;
    clientId: string;
    clientSecret: string;
    token: (claims?: Record<string, unknown>) => string;
  }>;
  createApiKey(scopes: string[]): Promise<string>;
  listen(): Promise<{ url: string; close: () => Promise<void> }>;
}

export function buildTestApp(opts: {
  store: Store;
  config?: Partial<Config>;
  routes?: (deps: ComponentDeps) => RouteDef[];
}): TestApp {
  const config = testConfig(opts.config);
  const log = new LogCapture();
  const logger = createLogger({ level: 'debug', destination: log });
  const metrics = createMetrics();
  const sealer = createSealer(config.masterKey);
  const apps = new AppsService(opts.store, sealer);
  const rateLimiters: RateLimiterFactory = rateLimitersOf(opts.store);
  const deps: ComponentDeps = { config, store: opts.store, sealer, apps, logger, metrics, rateLimiters };
  const authenticator = createAuthenticator({ adminToken: config.adminToken, lookup: apps, rateLimiters });
  const app = buildApp({
    config,
    logger,
    metrics,
    authenticator,
    routes: opts.routes ? opts.routes(deps) : [],
    isReady: () => opts.store.ping(),
    isStoreUnavailable,
  });
  return {
    ...deps,
    app,
    log,
    async createAppWithClient(scopes) {
      const rec = await apps.createApp({ name: 'Test app', language: 'en' });
      const client = await apps.createApiApp(rec.streamId, { name: 'client', scopes });
      return {
        streamId: rec.streamId,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        token: (claims = {}) =>
          signHs256({ appId: client.clientId, sub: 'u-tester', ...claims }, client.clientSecret),
      };
    },
    async createApiKey(scopes) {
      return (await apps.createApiKey({ name: 'test key', scopes })).apiKey;
    },
    async listen() {
      const server: Server = await new Promise((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
  };
}
