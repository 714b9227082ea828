/**
 * Wires the components together from a config, a store and a logger: services, the agent's ports,
 * the authenticator and every component's routes. main.ts and the tests both start here.
 */
import type { Express } from 'express';
import { buildApp } from './app.js';
import { createAuthenticator, createMetrics, createSealer, type Config, type Logger, type Metrics, type RouteDef } from './platform/index.js';
import { storeKeys, type Store } from './store/index.js';
import { AgentRegistry, AppsService, adminRoutes } from './admin/index.js';

export interface GatewayDeps {
  config: Config;
  store: Store;
  logger: Logger;
  metrics?: Metrics;
}

export interface Gateway {
  app: Express;
  metrics: Metrics;
  routes: RouteDef[];
  apps: AppsService;
  agents: AgentRegistry;
  /** Starts background work (batch-test runners, recovery). */
  start(): Promise<void>;
  /** Stops background work; the store is closed by the owner. */
  stop(): Promise<void>;
}

export function composeGateway(deps: GatewayDeps): Gateway {
  const { config, store, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  const sealer = createSealer(config.masterKey);
  const apps = new AppsService(store, sealer);
  const agents = new AgentRegistry(store);
  const keyFailures = store.rateLimiter({ name: storeKeys.rateLimitPrefix('api-key-failures'), points: 20, durationS: 60, blockDurationS: 60 });
  const authenticator = createAuthenticator({ adminToken: config.adminToken, lookup: apps, keyFailures });

  const routes: RouteDef[] = [...adminRoutes(apps, agents)];

  const app = buildApp({ config, logger, metrics, authenticator, routes, isReady: () => store.ping() });
  return {
    app,
    metrics,
    routes,
    apps,
    agents,
    async start() {},
    async stop() {},
  };
}
