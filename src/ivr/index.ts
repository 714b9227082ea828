/** IVR component: channel and settings, the webhook and its turn loop, call sessions, sandbox. */
import type { Config, Logger, Metrics, RouteDef, Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { CallSessionRepository } from './call-session-repository.js';
import { CallTurnService } from './call-turn-service.js';
import { ivrAdminRoutes } from './ivr-admin-routes.js';
import { IvrConfigService } from './ivr-config-service.js';
import type { IvrPorts } from './ivr-ports.js';
import { webhookRoutes } from './webhook-routes.js';

export type { IvrPorts, HistoryPort, TurnMessage, AgentSource, AppSource, CallLifecycle } from './ivr-ports.js';
export type { IvrSettings } from './ivr-settings-schema.js';
export { ivrSettingsSchema, sandboxRequiredSettings } from './ivr-settings-schema.js';
export { IvrConfigService } from './ivr-config-service.js';
export { CallSessionRepository } from './call-session-repository.js';
export { messageId } from './call-turn-service.js';

export interface IvrDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  logger: Logger;
  metrics: Metrics;
  ports: IvrPorts;
  requireApp: (streamId: string) => Promise<unknown>;
}

export function createIvrComponent(deps: IvrDeps): { routes: RouteDef[]; ivr: IvrConfigService; sessions: CallSessionRepository } {
  const ivr = new IvrConfigService(deps.store, deps.sealer);
  const sessions = new CallSessionRepository(deps.store, deps.config.sessionTtlS * 1000);
  const turns = new CallTurnService(sessions, deps.ports, deps.logger, deps.metrics);
  const routes = [
    ...ivrAdminRoutes(ivr, deps.requireApp),
    ...webhookRoutes({ config: deps.config, ivr, turns, ports: deps.ports, logger: deps.logger, metrics: deps.metrics }),
  ];
  return { routes, ivr, sessions };
}
