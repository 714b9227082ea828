/**
 * Wires the components together from a config, a store and a logger: services, the agent's ports,
 * the authenticator and every component's routes. main.ts and the tests both start here.
 */
import { buildApp } from './app.js';
import { prepareLanguagePacks } from './agent/index.js';
import {
  createAuthenticator,
  createCredentialGuesses,
  createMetrics,
  createSealer,
  type Config,
  type Logger,
  type Metrics,
  type RateLimiterFactory,
  type RouteDef,
  type VerifiedToken,
} from './platform/index.js';
import { TracedStore, countedStore, isStoreUnavailable, rateLimitersOf, type Store } from './store/index.js';
import {
  AgentRegistry,
  AppsService,
  adminRoutes,
  agentRecognizers,
  benchFloorRoute,
  createTrainingPool,
  type AgentCacheEntry,
} from './admin/index.js';
import { createConnectionsComponent, type ProviderBaseUrls } from './connections/index.js';
import { createTablesComponent } from './tables/index.js';
import { createAssistComponent } from './assist/index.js';
import { createTestRunsComponent, type TestRunsOptions } from './testruns/index.js';
import { createHistoryComponent, type CachedMeta } from './history/index.js';
import { ConsoleCredentials, ConsoleService, consoleRoutes } from './console-sign-in/index.js';
import { createInspectorComponent, type TraceBatchOptions } from './inspector/index.js';
import { AccountsService, accountsRoutes } from './accounts/index.js';
import { AuditService, auditRoutes } from './audit/index.js';
import { createIvrComponent, type CallSessionRepository } from './ivr/index.js';
import { createIvrSettingsComponent, type IvrCaches, type IvrConfigService } from './ivr-settings/index.js';
import {
  createSandboxLineComponent,
  type SandboxOptions,
  type SandboxService,
} from './sandbox-line/index.js';

export interface GatewayOptions {
  /** Overrides of the platform's rate limits (tests use small ones). */
  rateLimits?: {
    botApi?: { perMinute: number; perHour: number };
    tables?: { perMinute: number; perHour: number };
  };
  providerBaseUrls?: ProviderBaseUrls;
  fetch?: typeof fetch;
  testRuns?: TestRunsOptions;
  sandbox?: SandboxOptions;
  /** The clock of call activity and idle expiry (tests move it past CALL_IDLE_TIMEOUT_S). */
  clock?: () => number;
  /** How long an agent training lock lives unless renewed (tests of a takeover use a short one). */
  agentTrainingLockMs?: number;
  /** The trace writer's batching (tests that hold traces in the buffer). */
  traceBatch?: Partial<TraceBatchOptions>;
}

export interface GatewayDeps {
  config: Config;
  store: Store;
  logger: Logger;
  metrics?: Metrics;
  options?: GatewayOptions;
}

export interface Gateway {
  app: ReturnType<typeof buildApp>;
  metrics: Metrics;
  routes: RouteDef[];
  apps: AppsService;
  agents: AgentRegistry;
  ivr: IvrConfigService;
  sandbox: SandboxService;
  sessions: CallSessionRepository;
  /** Closes the calls that stopped sending turns now (the background sweep does it on its own); answers how many. */
  sweepIdleCalls(): Promise<number>;
  /** Starts background work (batch-test runners, recovery of cut-off runs, the idle-call sweep). */
  start(): Promise<void>;
  /** Stops background work; the store is closed by its owner. */
  stop(): Promise<void>;
}

export function composeGateway(deps: GatewayDeps): Gateway {
  const { config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  // with telemetry on, every store call made under a span is a span of its own; the bench counts them
  const traced = config.telemetry ? new TracedStore(deps.store) : deps.store;
  const store = config.benchMode
    ? countedStore(traced, (operation) => metrics.storeCalls.inc({ operation }))
    : traced;
  const options = deps.options ?? {};
  const sealer = createSealer(config.masterKey);

  // --- in-process caches: bounds from the config, hits and misses on /metrics ---
  const perApp = { max: config.appCacheMax, ttl: config.cacheTtlMs };
  const verifiedTokens = metrics.meteredCache<string, { result: VerifiedToken; secret: string }>(
    'verified_tokens',
    { max: config.appCacheMax },
  );
  const caches = {
    agents: metrics.meteredCache<string, AgentCacheEntry>('agents', { max: config.agentCacheMax }),
    historySessions: metrics.meteredCache<string, CachedMeta>('history_sessions', {
      max: config.historySessionCacheMax,
    }),
    ivr: {
      channels: metrics.meteredCache('ivr_channels', perApp),
      settings: metrics.meteredCache('ivr_settings', perApp),
      apps: metrics.meteredCache('ivr_apps', perApp),
      verifiedTokens,
    } satisfies IvrCaches,
  };
  // --- end of caches ---

  // the platform's rate-limiter port, kept in the store under the store's key names
  const rateLimiters: RateLimiterFactory = rateLimitersOf(store);
  const base = { config, store, sealer, logger, metrics, rateLimiters };
  const apps = new AppsService(store, sealer);
  // one count of attempts at the admin token, for the Bearer header and the console's sign-in
  const adminGuesses = createCredentialGuesses({
    rateLimiters,
    metrics,
    trustedNetworks: config.adminTrustedNetworks,
  });
  // operator accounts (the admin token stays the bootstrap and break-glass credential) and the audit trail
  const accounts = new AccountsService(store, {
    rateLimiters,
    bindingKey: config.masterKey,
    trustedNetworks: config.adminTrustedNetworks,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const audit = new AuditService(store, logger, options.clock);
  const consoleSessions = new ConsoleService(store, {
    adminToken: config.adminToken,
    ttlS: config.consoleSessionTtlS,
    rateLimiters,
    credentialKey: config.masterKey,
    guesses: adminGuesses,
    accounts,
  });
  const authenticator = createAuthenticator({
    adminToken: config.adminToken,
    lookup: apps,
    rateLimiters,
    verifiedTokens,
    consoleSessions,
    adminGuesses,
    personalTokens: accounts,
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
  });

  const connections = createConnectionsComponent({
    ...base,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.providerBaseUrls ? { providerBaseUrls: options.providerBaseUrls } : {}),
  });
  const tables = createTablesComponent(
    { ...base, apps },
    options.rateLimits?.tables ? { rateLimit: options.rateLimits.tables } : {},
  );
  const assist = createAssistComponent(
    { ...base, apps },
    options.rateLimits?.botApi ? { rateLimit: options.rateLimits.botApi } : {},
  );
  const agents = new AgentRegistry({
    store,
    cache: caches.agents,
    trainer: createTrainingPool({
      threads: config.agentTrainingThreads,
      maxQueued: config.abuseLimits.trainingQueueMax,
    }),
    uploadLimiter: rateLimiters({
      name: 'agent-uploads',
      points: config.abuseLimits.agentUploadsPerMinute,
      durationS: 60,
    }),
    logger,
    limits: {
      maxIntents: config.agentMaxIntents,
      maxUtterances: config.agentMaxUtterances,
      maxNodes: config.agentMaxNodes,
    },
    checks: [assist.definitionCheck, connections.definitionCheck, tables.recordCheck],
    recheckMs: config.cacheTtlMs,
    ...(options.agentTrainingLockMs ? { trainingLockMs: options.agentTrainingLockMs } : {}),
  });
  const history = createHistoryComponent({
    store,
    apps,
    metrics,
    rateLimiters,
    sessionMetas: caches.historySessions,
    ...(options.rateLimits?.botApi ? { rateLimits: options.rateLimits.botApi } : {}),
  });
  const testRuns = createTestRunsComponent({
    ...base,
    apps,
    recognizers: agentRecognizers(
      agents,
      async (id) => (await ivrSettings.ivr.getSettings(id)).sandboxAnswersFrom,
    ),
    ...(options.testRuns ? { options: options.testRuns } : {}),
  });

  const inspector = createInspectorComponent({
    config,
    store,
    requireApp: (streamId) => apps.requireApp(streamId),
    sessions: consoleSessions,
    logger,
    metrics,
    ...(options.traceBatch ? { traceBatch: options.traceBatch } : {}),
  });
  const ivrSettings = createIvrSettingsComponent({
    store,
    sealer,
    caches: caches.ivr,
    requireApp: (streamId) => apps.requireApp(streamId),
  });
  const sandboxLine = createSandboxLineComponent({
    ...base,
    ivr: ivrSettings.ivr,
    requireApp: (streamId) => apps.requireApp(streamId),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const ivrComponent = createIvrComponent({
    ...base,
    ivr: ivrSettings.ivr,
    caches: caches.ivr,
    ...(options.clock ? { clock: options.clock } : {}),
    ports: {
      agents,
      apps,
      history: history.turns,
      agentPorts: { llm: connections.llm, tables: tables.tables, skillGroups: assist.skillGroups },
      // a call that ended gives its sandbox line back
      lifecycle: { ended: (s) => sandboxLine.sandbox.release(s.streamId, s.callId) },
      ...(inspector.traces ? { traces: inspector.traces } : {}),
    },
  });

  // Deleting an app: refused while one of its test runs is active; then what other components keep
  // outside the app's key scope goes, and then every key in the scope (AppsService.deleteApp).
  apps.onDelete((streamId) => testRuns.assertNoActiveRun(streamId));
  apps.onDelete((streamId) => ivrSettings.ivr.forgetApp(streamId));
  apps.onDelete((streamId) => sandboxLine.sandbox.forgetApp(streamId));
  apps.onDelete((streamId) => inspector.forgetApp(streamId));

  const routes: RouteDef[] = [
    ...adminRoutes(apps, agents, { agentMaxBytes: config.agentMaxBytes }),
    ...ivrSettings.routes,
    ...sandboxLine.routes,
    ...ivrComponent.routes,
    ...inspector.routes,
    ...connections.routes,
    ...tables.routes,
    ...assist.routes,
    ...history.routes,
    ...testRuns.routes,
    ...consoleRoutes(consoleSessions, new ConsoleCredentials(store, sealer, apps, logger)),
    ...accountsRoutes(accounts, audit),
    ...auditRoutes(audit),
    ...(config.benchMode ? [benchFloorRoute(store)] : []),
  ];

  const app = buildApp({
    config,
    logger,
    metrics,
    authenticator,
    routes,
    audit,
    isReady: () => store.ping(),
    isStoreUnavailable,
  });
  return {
    app,
    metrics,
    routes,
    apps,
    agents,
    ivr: ivrSettings.ivr,
    sandbox: sandboxLine.sandbox,
    sessions: ivrComponent.sessions,
    sweepIdleCalls: () => ivrComponent.idleCalls.sweep(),
    start: async () => {
      // the word vectors, read before the first caller's turn rather than during it
      await Promise.all([testRuns.start(), prepareLanguagePacks()]);
      ivrComponent.idleCalls.start(ivrComponent.idleSweepIntervalMs);
    },
    stop: async () => {
      await ivrComponent.idleCalls.stop();
      await Promise.all([testRuns.stop(), agents.stop(), inspector.feeds.close()]);
      // after the server stopped taking requests (main.ts): the last turns' traces, before the store closes
      await inspector.close();
    },
  };
}
