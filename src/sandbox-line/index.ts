/**
 * Sandbox line component: the PIN test line of each app (provisioning, number routing, the PIN and
 * secret entry with its limits and lockouts, the lines calls hold) and its operator routes.
 */
import type { Config, Metrics, RateLimiterFactory, RouteDef, Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { IvrConfigService } from '../ivr-settings/index.js';
import { SandboxService, type SandboxOptions } from './sandbox-service.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { sandboxStatusRoute } from './sandbox-status-route.js';
import { sandboxLockoutRoutes } from './sandbox-lockout-routes.js';

export { SandboxService, type SandboxOptions } from './sandbox-service.js';
export type { SandboxLimits } from './sandbox-login-limits.js';

export interface SandboxLineDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  metrics: Metrics;
  /** The platform's rate-limiter port (sandbox entry and wrong PINs). */
  rateLimiters: RateLimiterFactory;
  /** The app's IVR settings: the sandbox pre-fills what it needs and mints call tokens. */
  ivr: IvrConfigService;
  requireApp: (streamId: string) => Promise<unknown>;
  sandbox?: SandboxOptions;
}

export interface SandboxLineComponent {
  sandbox: SandboxService;
  routes: RouteDef[];
}

export function createSandboxLineComponent(deps: SandboxLineDeps): SandboxLineComponent {
  const sandbox = new SandboxService(
    deps.store,
    deps.sealer,
    deps.ivr,
    deps.config,
    deps.metrics,
    deps.rateLimiters,
    deps.sandbox,
  );
  const routes = [
    ...sandboxRoutes(sandbox, deps.requireApp),
    sandboxStatusRoute(sandbox, deps.requireApp),
    ...sandboxLockoutRoutes(sandbox, deps.requireApp),
  ];
  return { sandbox, routes };
}
