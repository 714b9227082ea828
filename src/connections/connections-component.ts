/** Builds the connections component: its public routes (/api/public/connections) and the agent's LLM port. */
import { Histogram } from 'prom-client';
import type { Config, Logger, Metrics, RouteDef, Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { LlmPort } from '../agent/index.js';
import type { DefinitionCheck } from '../admin/index.js';
import { connectionCheck } from './connection-check.js';
import { connectionsRoutes } from './connections-routes.js';
import { ConnectionsService } from './connections-service.js';
import { createEndpointGuard, type HostLookup } from './endpoint-guard.js';
import { createLlmClient, type ProviderBaseUrls } from './llm-client.js';

export interface ConnectionsDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  logger: Logger;
  metrics: Metrics;
  /** fetch for hosted providers (default: global fetch). */
  fetch?: typeof fetch;
  /** Hosted providers' base URLs (defaults: their public API bases). */
  providerBaseUrls?: ProviderBaseUrls;
  /** Host name resolution for custom endpoints (default: node:dns lookup, all addresses). */
  lookup?: HostLookup;
}

export interface ConnectionsComponent {
  routes: RouteDef[];
  llm: LlmPort;
  service: ConnectionsService;
  /** For the agent registry: an llm node's connection must exist. */
  definitionCheck: DefinitionCheck;
}

const LLM_HISTOGRAM = 'ivr_llm_call_duration_seconds';

function llmHistogram(metrics: Metrics): Histogram<'provider' | 'outcome'> {
  const existing = metrics.registry.getSingleMetric(LLM_HISTOGRAM);
  if (existing) return existing as Histogram<'provider' | 'outcome'>;
  return new Histogram({
    name: LLM_HISTOGRAM,
    help: 'Model calls through connections, by provider and outcome (ok or the LlmError code)',
    labelNames: ['provider', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
    registers: [metrics.registry],
  });
}

export function createConnectionsComponent(deps: ConnectionsDeps): ConnectionsComponent {
  const guard = createEndpointGuard({
    allowPrivate: deps.config.allowPrivateModelEndpoints,
    ...(deps.lookup ? { lookup: deps.lookup } : {}),
  });
  const service = new ConnectionsService(deps.store, deps.sealer, deps.logger);
  const histogram = llmHistogram(deps.metrics);
  const llm = createLlmClient({
    service,
    guard,
    logger: deps.logger,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.providerBaseUrls ? { providerBaseUrls: deps.providerBaseUrls } : {}),
    observe: (o) => histogram.observe({ provider: o.provider, outcome: o.outcome }, o.seconds),
  });
  return {
    routes: connectionsRoutes(service, guard),
    llm,
    service,
    definitionCheck: connectionCheck((id) => service.exists(id)),
  };
}
