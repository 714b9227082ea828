/** IVR component: channel and settings, the webhook and its turn loop, call sessions, sandbox. */
import type { Config, Logger, Metrics, RateLimiterFactory, RouteDef, Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { CallSessionRepository } from './call-session-repository.js';
import { CallTurnService } from './call-turn-service.js';
import { ivrAdminRoutes } from './ivr-admin-routes.js';
import { IvrConfigService } from './ivr-config-service.js';
import type { IvrCaches } from './ivr-caches.js';
import type { IvrPorts } from './ivr-ports.js';
import { grammarRoutes } from './grammar-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import { SandboxService, type SandboxOptions } from './sandbox-service.js';
import { sandboxRoutes } from './sandbox-routes.js';

export type { IvrPorts, HistoryPort, PreparedHistory, TurnMessage, AgentSource, AppSource, CallLifecycle } from './ivr-ports.js';
export type { IvrSettings } from './ivr-settings-schema.js';
export type { IvrCaches } from './ivr-caches.js';
export { ivrSettingsSchema, sandboxRequiredSettings } from './ivr-settings-schema.js';
export { IvrConfigService } from './ivr-config-service.js';
export { CallSessionRepository } from './call-session-repository.js';
export { messageId } from './call-turn-service.js';
export { callEnded } from './call-ended.js';
export { SandboxService, type SandboxOptions } from './sandbox-service.js';
export type { SandboxLimits } from './sandbox-login-limits.js';

export interface IvrDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  logger: Logger;
  metrics: Metrics;
  /** The platform's rate-limiter port (sandbox entry and wrong PINs). */
  rateLimiters: RateLimiterFactory;
  ports: IvrPorts;
  /** Made by the composition root (see ivr-caches.ts). */
  caches: IvrCaches;
  requireApp: (streamId: string) => Promise<unknown>;
  sandbox?: SandboxOptions;
}

export function createIvrComponent(deps: IvrDeps): { routes: RouteDef[]; ivr: IvrConfigService; sessions: CallSessionRepository; sandbox: SandboxService } {
  const ivr = new IvrConfigService(deps.store, deps.sealer, deps.caches);
  const sessions = new CallSessionRepository(deps.store, deps.config.sessionTtlS * 1000);
  const sandbox = new SandboxService(deps.store, deps.sealer, ivr, deps.config, deps.metrics, deps.rateLimiters, deps.sandbox);
  const lifecycle = deps.ports.lifecycle;
  const ports: IvrPorts = {
    ...deps.ports,
    lifecycle: {
      started: (s) => lifecycle?.started?.(s),
      ended: async (s) => {
        await sandbox.release(s.appId, s.callId);
        await lifecycle?.ended?.(s);
      },
    },
  };
  const turns = new CallTurnService(sessions, ports, deps.logger, deps.metrics);
  const routes = [
    ...ivrAdminRoutes(ivr, deps.requireApp),
    ...sandboxRoutes(sandbox, deps.requireApp),
    ...webhookRoutes({ config: deps.config, ivr, turns, ports, logger: deps.logger, metrics: deps.metrics, caches: deps.caches }),
    ...grammarRoutes(),
  ];
  return { routes, ivr, sessions, sandbox };
}
