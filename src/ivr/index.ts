/** IVR component: channel and settings, the webhook and its turn loop, call sessions, sandbox. */
import type { Config, Logger, Metrics, RateLimiterFactory, RouteDef, Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { CallSessionRepository } from './call-session-repository.js';
import { CallTurnService } from './call-turn-service.js';
import { IdleCallSweeper } from './idle-call-sweeper.js';
import { ivrAdminRoutes } from './ivr-admin-routes.js';
import { IvrConfigService } from './ivr-config-service.js';
import type { IvrCaches } from './ivr-caches.js';
import type { IvrPorts } from './ivr-ports.js';
import { grammarRoutes } from './grammar-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import { SandboxService, type SandboxOptions } from './sandbox-service.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { sandboxStatusRoute } from './sandbox-status-route.js';
import { sandboxLockoutRoutes } from './sandbox-lockout-routes.js';

export type { IvrPorts, HistoryPort, PreparedHistory, TurnMessage, AgentSource, AppSource, CallLifecycle, TurnTracePort } from './ivr-ports.js';
export type { TurnTrace, CallSummaryUpdate, TraceMark, ModelCallTrace, TableWriteTrace } from './turn-trace.js';
export { turnTraceSchema, callSummaryUpdateSchema, TRACE_MARKS } from './turn-trace.js';
export type { IvrSettings } from './ivr-settings-schema.js';
export type { IvrCaches } from './ivr-caches.js';
export { ivrSettingsSchema, sandboxRequiredSettings } from './ivr-settings-schema.js';
export { IvrConfigService } from './ivr-config-service.js';
export { CallSessionRepository } from './call-session-repository.js';
export { messageId } from './call-turn-service.js';
export { callEnded } from './call-ended.js';
export { SandboxService, type SandboxOptions } from './sandbox-service.js';
export type { SandboxLimits } from './sandbox-login-limits.js';
export { IdleCallSweeper } from './idle-call-sweeper.js';

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
  /** The clock of call activity and idle expiry (tests move it); default Date.now. */
  clock?: () => number;
}

export interface IvrComponent {
  routes: RouteDef[];
  ivr: IvrConfigService;
  sessions: CallSessionRepository;
  sandbox: SandboxService;
  /** Closes calls that stopped sending turns (CALL_IDLE_TIMEOUT_S); `start` sweeps in the background. */
  idleCalls: IdleCallSweeper;
  /** How often the background sweep runs. */
  idleSweepIntervalMs: number;
}

export function createIvrComponent(deps: IvrDeps): IvrComponent {
  const ivr = new IvrConfigService(deps.store, deps.sealer, deps.caches);
  const now = deps.clock ?? Date.now;
  const ttlMs = deps.config.sessionTtlS * 1000;
  const idleMs = deps.config.callIdleTimeoutS * 1000;
  // a bridged transfer keeps the caller busy elsewhere: it gets what the session's lifetime leaves
  const sessions = new CallSessionRepository(deps.store, ttlMs, undefined, { idleMs, transferIdleMs: Math.max(idleMs, ttlMs - idleMs) });
  const sandbox = new SandboxService(deps.store, deps.sealer, ivr, deps.config, deps.metrics, deps.rateLimiters, deps.sandbox);
  const lifecycle = deps.ports.lifecycle;
  const ports: IvrPorts = {
    ...deps.ports,
    lifecycle: {
      started: (s) => lifecycle?.started?.(s),
      ended: async (s) => {
        await sandbox.release(s.streamId, s.callId);
        await lifecycle?.ended?.(s);
      },
    },
  };
  const turns = new CallTurnService(sessions, ports, deps.logger, deps.metrics, now);
  const idleCalls = new IdleCallSweeper(sessions, ports, deps.logger, deps.metrics, { now, leaseMs: idleMs });
  const routes = [
    ...ivrAdminRoutes(ivr, deps.requireApp),
    ...sandboxRoutes(sandbox, deps.requireApp),
    sandboxStatusRoute(sandbox, deps.requireApp),
    ...sandboxLockoutRoutes(sandbox, deps.requireApp),
    ...webhookRoutes({ config: deps.config, ivr, turns, ports, logger: deps.logger, metrics: deps.metrics, caches: deps.caches }),
    ...grammarRoutes(),
  ];
  return { routes, ivr, sessions, sandbox, idleCalls, idleSweepIntervalMs: Math.min(60_000, Math.max(1_000, Math.floor(idleMs / 10))) };
}
