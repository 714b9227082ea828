/** IVR component: the IVR channel's webhook and its turn loop, call sessions and idle-call expiry. */
import type { Config, Logger, Metrics, RouteDef } from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { IvrCaches, IvrConfigService } from '../ivr-settings/index.js';
import { CallSessionRepository } from './call-session-repository.js';
import { CallTurnService } from './call-turn-service.js';
import { IdleCallSweeper } from './idle-call-sweeper.js';
import type { IvrPorts } from './ivr-ports.js';
import { grammarRoutes } from './grammar-routes.js';
import { webhookRoutes } from './webhook-routes.js';

export type {
  IvrPorts,
  HistoryPort,
  PreparedHistory,
  TurnMessage,
  AgentSource,
  AppSource,
  CallLifecycle,
} from './ivr-ports.js';
export type { AnswerSpec, CallSession } from './call-session.js';
export type { RenderedDocument, TurnContext, TurnOutcome } from './turn-context.js';
export type { WebhookRequest } from './webhook-input.js';
export { param } from './webhook-input.js';
export { textPrompt } from './document-mapper.js';
export { WEBHOOK_BODY_LIMIT, renderWebhookError, submitUrl } from './webhook-routes.js';
export { CallSessionRepository } from './call-session-repository.js';
export { messageId } from './call-turn-service.js';
export { callEnded } from './call-ended.js';
export { IdleCallSweeper } from './idle-call-sweeper.js';

export interface IvrDeps {
  config: Config;
  store: Store;
  logger: Logger;
  metrics: Metrics;
  /** The app's IVR channel and settings (src/ivr-settings). */
  ivr: IvrConfigService;
  /** What the turn loop needs from the rest of the system (a sandbox line's release is a `lifecycle.ended`). */
  ports: IvrPorts;
  /** Made by the composition root (see src/ivr-settings/ivr-caches.ts). */
  caches: IvrCaches;
  /** The clock of call activity and idle expiry (tests move it); default Date.now. */
  clock?: () => number;
}

export interface IvrComponent {
  routes: RouteDef[];
  sessions: CallSessionRepository;
  /** Closes calls that stopped sending turns (CALL_IDLE_TIMEOUT_S); `start` sweeps in the background. */
  idleCalls: IdleCallSweeper;
  /** How often the background sweep runs. */
  idleSweepIntervalMs: number;
}

export function createIvrComponent(deps: IvrDeps): IvrComponent {
  const { ivr, ports } = deps;
  const now = deps.clock ?? Date.now;
  const ttlMs = deps.config.sessionTtlS * 1000;
  const idleMs = deps.config.callIdleTimeoutS * 1000;
  // a bridged transfer keeps the caller busy elsewhere: it gets what the session's lifetime leaves
  const sessions = new CallSessionRepository(deps.store, ttlMs, undefined, {
    idleMs,
    transferIdleMs: Math.max(idleMs, ttlMs - idleMs),
  });
  const turns = new CallTurnService(sessions, ports, deps.logger, deps.metrics, now);
  const idleCalls = new IdleCallSweeper(sessions, ports, deps.logger, deps.metrics, { now, leaseMs: idleMs });
  const routes = [
    ...webhookRoutes({
      config: deps.config,
      ivr,
      turns,
      ports,
      logger: deps.logger,
      metrics: deps.metrics,
      caches: deps.caches,
    }),
    ...grammarRoutes(),
  ];
  return {
    routes,
    sessions,
    idleCalls,
    idleSweepIntervalMs: Math.min(60_000, Math.max(1_000, Math.floor(idleMs / 10))),
  };
}
