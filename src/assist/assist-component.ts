/**
 * Builds the assist component: its routes, the `SkillGroupPort` the agent's transfer node uses,
 * and the definition check that, when an agent is defined, a transfer names an imported skill group.
 */
import {
  createRateLimitGate,
  RATE_LIMITS,
  type Config,
  type Logger,
  type Metrics,
  type RateLimiterFactory,
  type RouteDef,
  type Sealer,
} from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { AppsService, DefinitionCheck } from '../admin/index.js';
import type { SkillGroupPort } from '../agent/index.js';
import { AssistRepository } from './assist-repository.js';
import { AssistService } from './assist-service.js';
import { assistRoutes } from './assist-routes.js';
import { skillGroupCheck } from './skill-group-check.js';

export interface AssistDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  apps: AppsService;
  logger: Logger;
  metrics: Metrics;
  /** Makes the rolling rate limiters (the store's). */
  rateLimiters: RateLimiterFactory;
}

export interface AssistOptions {
  /** Overrides the platform's bot-API limit of 60/min and 1800/h per bot (tests use a small one). */
  rateLimit?: { perMinute: number; perHour: number };
}

export interface AssistComponent {
  routes: RouteDef[];
  skillGroups: SkillGroupPort;
  /** Ids of every skill group imported into the app (any accountId/orgId). */
  listSkillGroupIds(streamId: string): Promise<string[]>;
  /** For the agent registry: a transfer node's skill group must have been imported for the app. */
  definitionCheck: DefinitionCheck;
  service: AssistService;
}

export function createAssistComponent(deps: AssistDeps, options: AssistOptions = {}): AssistComponent {
  const limit = options.rateLimit ?? RATE_LIMITS.botApi;
  const gate = createRateLimitGate(
    deps.rateLimiters,
    RATE_LIMITS.botApi.name,
    limit.perMinute,
    limit.perHour,
    deps.metrics,
  );
  const service = new AssistService(
    new AssistRepository(deps.store),
    deps.apps,
    deps.logger.child({ component: 'assist' }),
  );
  const listSkillGroupIds = (streamId: string): Promise<string[]> => service.listSkillGroupIds(streamId);
  return {
    routes: assistRoutes(service, gate),
    skillGroups: { find: ({ streamId, skillGroupId }) => service.findSkillGroup(streamId, skillGroupId) },
    listSkillGroupIds,
    definitionCheck: skillGroupCheck(listSkillGroupIds),
    service,
  };
}
