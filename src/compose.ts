/**
 * Wires the components together from a config, a store and a logger: services, the agent's ports,
 * the authenticator and every component's routes. main.ts and the tests both start here.
 */
import type { Express } from 'express';
import { buildApp } from './app.js';
import { createAuthenticator, createMetrics, createSealer, type Config, type Logger, type Metrics, type RateLimiterFactory, type RouteDef } from './platform/index.js';
import { isStoreUnavailable, storeKeys, type Store } from './store/index.js';
import { AgentRegistry, AppsService, adminRoutes, benchFloorRoute, type DefinitionCheck } from './admin/index.js';
import { createConnectionsComponent, type ProviderBaseUrls } from './connections/index.js';
import { createTablesComponent } from './tables/index.js';
import { createAssistComponent } from './assist/index.js';
import { createTestRunsComponent, type RecognizerPort, type TestRunsOptions } from './testruns/index.js';
import { createHistoryComponent, HISTORY_MAX_TEXT, type ValidMessage } from './history/index.js';
import { createIvrComponent, type SandboxOptions, type HistoryPort, type TurnMessage, type IvrConfigService, type SandboxService, type CallSessionRepository } from './ivr/index.js';

/** The first `max` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
const cutText = (text: string, max: number): string => {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
};

export interface GatewayOptions {
  /** Overrides of the platform's rate limits (tests use small ones). */
  rateLimits?: { botApi?: { perMinute: number; perHour: number }; tables?: { perMinute: number; perHour: number } };
  providerBaseUrls?: ProviderBaseUrls;
  fetch?: typeof fetch;
  testRuns?: TestRunsOptions;
  sandbox?: SandboxOptions;
}

export interface GatewayDeps {
  config: Config;
  store: Store;
  logger: Logger;
  metrics?: Metrics;
  options?: GatewayOptions;
}

export interface Gateway {
  app: Express;
  metrics: Metrics;
  routes: RouteDef[];
  apps: AppsService;
  agents: AgentRegistry;
  ivr: IvrConfigService;
  sandbox: SandboxService;
  sessions: CallSessionRepository;
  /** Starts background work (batch-test runners, recovery of cut-off runs). */
  start(): Promise<void>;
  /** Stops background work; the store is closed by its owner. */
  stop(): Promise<void>;
}

export function composeGateway(deps: GatewayDeps): Gateway {
  const { config, store, logger } = deps;
  const options = deps.options ?? {};
  const metrics = deps.metrics ?? createMetrics();
  const sealer = createSealer(config.masterKey);
  // the platform's rate-limiter port, kept in the store under the store's key names
  const rateLimiters: RateLimiterFactory = (rule) => store.rateLimiter({ ...rule, name: storeKeys.rateLimitPrefix(rule.name) });
  const base = { config, store, sealer, logger, metrics, rateLimiters };
  const apps = new AppsService(store, sealer);
  const keyFailures = rateLimiters({ name: 'api-key-failures', points: 20, durationS: 60, blockDurationS: 60 });
  const authenticator = createAuthenticator({ adminToken: config.adminToken, lookup: apps, keyFailures });

  const connections = createConnectionsComponent({
    ...base,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.providerBaseUrls ? { providerBaseUrls: options.providerBaseUrls } : {}),
  });
  const tables = createTablesComponent({ ...base, apps }, options.rateLimits?.tables ? { rateLimit: options.rateLimits.tables } : {});
  const assist = createAssistComponent({ ...base, apps }, options.rateLimits?.botApi ? { rateLimit: options.rateLimits.botApi } : {});
  /** A transfer node's skill group must be one the app imported (area B). */
  const skillGroupCheck: DefinitionCheck = async (streamId, definition) => {
    const known = new Set(await assist.listSkillGroupIds(streamId));
    const problems: Array<{ path: string; msg: string }> = [];
    for (const [dialogName, dialog] of Object.entries(definition.dialogs)) {
      for (const [nodeId, node] of Object.entries(dialog.nodes)) {
        const id = (node as { type: string; skillGroupId?: string }).type === 'transfer' ? (node as { skillGroupId?: string }).skillGroupId : undefined;
        if (id && !known.has(id)) problems.push({ path: `dialogs.${dialogName}.nodes.${nodeId}.skillGroupId`, msg: `Skill group "${id}" has not been imported for this app` });
      }
    }
    return problems;
  };
  const agents = new AgentRegistry(store, [skillGroupCheck, tables.recordCheck]);
  const history = createHistoryComponent({ store, apps, metrics, rateLimiters, ...(options.rateLimits?.botApi ? { rateLimits: options.rateLimits.botApi } : {}) });

  const recognizers: RecognizerPort = {
    async forApp(streamId) {
      const agent = await agents.get(streamId);
      if (!agent) return null;
      return {
        language: agent.definition.language,
        threshold: agent.recognizer.threshold,
        recognize: async (text) => {
          const r = await agent.recognizer.recognize(text);
          return { intent: r.intent, score: r.score, scores: r.scores };
        },
      };
    },
  };
  const testRuns = createTestRunsComponent({ ...base, apps, recognizers, ...(options.testRuns ? { options: options.testRuns } : {}) });

  // The turn's messages are built by the IVR component from bounded input (generated ids, webhook
  // parameters cut to their limits, the app's language code), so they skip the schema check; only
  // a model's answer can be longer than a message may be, and is cut to the limit.
  const toValid = (messages: TurnMessage[]): ValidMessage[] =>
    messages.map((m) => {
      const v: ValidMessage = {
        id: m.id,
        botId: m.botId,
        userId: m.userId,
        identities: m.identities,
        sessionId: m.sessionId,
        callId: m.callId,
        type: m.type,
        status: m.type === 'incoming' ? 'received' : 'delivered',
        text: m.text.length > HISTORY_MAX_TEXT ? cutText(m.text, HISTORY_MAX_TEXT) : m.text,
        channel: 'ivr',
        channelUId: m.channelUId,
        createdOn: m.createdOn,
        lang: m.lang,
        taskKind: 'Dialog',
      };
      if (m.traceId) v.traceId = m.traceId;
      if (m.asrMetaData) v.asrMetaData = m.asrMetaData;
      return v;
    });
  const historyPort: HistoryPort = {
    record: (messages) => history.recorder.recordValid(toValid(messages)),
    // one step with the turn's commit where the store's atomic spans slots (not on a Redis Cluster)
    ...(store.atomicAcrossSlots ? { prepare: (messages: TurnMessage[]) => history.recorder.prepare(toValid(messages)) } : {}),
  };
  const ivrComponent = createIvrComponent({
    ...base,
    requireApp: (streamId) => apps.requireApp(streamId),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ports: {
      agents,
      apps,
      history: historyPort,
      agentPorts: { llm: connections.llm, tables: tables.tables, skillGroups: assist.skillGroups },
    },
  });

  // Deleting an app: refused while one of its test runs is active; then what other components keep
  // outside the app's key scope goes, and then every key in the scope (AppsService.deleteApp).
  apps.onDelete((streamId) => testRuns.assertNoActiveRun(streamId));
  apps.onDelete((streamId) => ivrComponent.ivr.forgetApp(streamId));
  apps.onDelete((streamId) => ivrComponent.sandbox.forgetApp(streamId));

  const routes: RouteDef[] = [
    ...adminRoutes(apps, agents),
    ...ivrComponent.routes,
    ...connections.routes,
    ...tables.routes,
    ...assist.routes,
    ...history.routes,
    ...testRuns.routes,
    ...(config.benchMode ? [benchFloorRoute(store)] : []),
  ];

  const app = buildApp({ config, logger, metrics, authenticator, routes, isReady: () => store.ping(), isStoreUnavailable });
  return {
    app,
    metrics,
    routes,
    apps,
    agents,
    ivr: ivrComponent.ivr,
    sandbox: ivrComponent.sandbox,
    sessions: ivrComponent.sessions,
    start: () => testRuns.start(),
    stop: () => testRuns.stop(),
  };
}
