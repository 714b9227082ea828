/**
 * Builds the batch-tests component: its routes and the background machinery (run loops, owner
 * heartbeat, recovery of runs cut off by a dead instance). `start()` recovers and starts the
 * heartbeat; `stop()` ends running loops (their runs are marked failed, partial); `halt()` drops
 * everything without a write.
 */
import { Counter } from 'prom-client';
import {
  AppError,
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
import { FileLinks } from './file-links.js';
import type { RecognizerPort } from './recognizer-port.js';
import { runFinisher, type AppsLookup } from './run-finisher.js';
import { RunSupervisor } from './run-supervisor.js';
import { TestrunsRepository } from './testruns-repository.js';
import { testrunsRoutes } from './testruns-routes.js';
import { TestrunsService } from './testruns-service.js';

export interface TestRunsOptions {
  /** Utterances per checkpoint (progress and rows persisted). Default 50. */
  chunkSize?: number;
  /** Also checkpoint when this long has passed since the last one. Default 1000 ms. */
  persistEveryMs?: number;
  /** Yield to the event loop after this much uninterrupted work. Default 10 ms. */
  sliceMs?: number;
  /** A recognizer call longer than this counts as a failed utterance. Default 30 s. */
  utteranceTimeoutMs?: number;
  heartbeatMs?: number; // default 2 s
  ownerTtlMs?: number; // default 10 s
  sweepMs?: number; // default 10 s
  /** stop() waits this long for loops to end. Default min(SHUTDOWN_GRACE_MS, 5 s). */
  stopGraceMs?: number;
  /** Lifetime of a download link. Default 1 hour. */
  linkTtlMs?: number;
  instanceId?: string;
  /** The bot API rate limit on launch and status (per app); false disables it. Default 60/min, 1800/h. */
  rateLimit?: { perMinute: number; perHour: number } | false;
}

export interface TestRunsDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  apps: AppsLookup;
  logger: Logger;
  metrics: Metrics;
  /** Makes the rolling rate limiters (the store's). */
  rateLimiters: RateLimiterFactory;
  recognizers: RecognizerPort;
  options?: TestRunsOptions;
}

export interface TestRunsComponent {
  routes: RouteDef[];
  instanceId: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Abandons loops and heartbeat without writing (a killed process; for tests and fatal exits). */
  halt(): void;
  /** A step of deleting an app: refused (409) while one of its runs is active on any instance. */
  assertNoActiveRun(streamId: string): Promise<void>;
}

function counter<L extends string>(
  metrics: Metrics,
  name: string,
  help: string,
  labelNames: L[],
): Counter<L> {
  const existing = metrics.registry.getSingleMetric(name);
  return (
    (existing as Counter<L> | undefined) ??
    new Counter({ name, help, labelNames, registers: [metrics.registry] })
  );
}

export function createTestRunsComponent(deps: TestRunsDeps): TestRunsComponent {
  const o = deps.options ?? {};
  const heartbeatMs = o.heartbeatMs ?? 2_000;
  const ownerTtlMs = o.ownerTtlMs ?? 10_000;
  if (ownerTtlMs < 2 * heartbeatMs)
    throw new Error('testruns: ownerTtlMs must be at least twice heartbeatMs');
  const logger = deps.logger.child({ component: 'testruns' });
  const repo = new TestrunsRepository(deps.store);
  const finish = runFinisher({ repo, apps: deps.apps });
  const supervisor = new RunSupervisor({
    repo,
    finish,
    logger,
    options: {
      heartbeatMs,
      ownerTtlMs,
      sweepMs: o.sweepMs ?? 10_000,
      stopGraceMs: o.stopGraceMs ?? Math.min(deps.config.shutdownGraceMs, 5_000),
    },
    ...(o.instanceId ? { instanceId: o.instanceId } : {}),
  });
  const runs = counter(deps.metrics, 'ivr_testruns_total', 'Batch test runs ended, by outcome', ['outcome']);
  const utterances = counter(
    deps.metrics,
    'ivr_testrun_utterances_total',
    'Utterances tested by batch test runs',
    [],
  );
  const service = new TestrunsService({
    repo,
    finish,
    logger,
    supervisor,
    apps: deps.apps,
    recognizers: deps.recognizers,
    links: new FileLinks(deps.config.masterKey, o.linkTtlMs ?? 3_600_000),
    loop: {
      chunkSize: o.chunkSize ?? 50,
      persistEveryMs: o.persistEveryMs ?? 1_000,
      sliceMs: o.sliceMs ?? 10,
      utteranceTimeoutMs: o.utteranceTimeoutMs ?? 30_000,
    },
    observe: { run: (outcome) => runs.inc({ outcome }), utterance: () => utterances.inc() },
  });
  const limits = o.rateLimit ?? {
    perMinute: RATE_LIMITS.botApi.perMinute,
    perHour: RATE_LIMITS.botApi.perHour,
  };
  const gate = limits
    ? createRateLimitGate(
        deps.rateLimiters,
        RATE_LIMITS.botApi.name,
        limits.perMinute,
        limits.perHour,
        deps.metrics,
      )
    : null;
  return {
    routes: testrunsRoutes(service, gate),
    instanceId: supervisor.instanceId,
    start: () => supervisor.start(),
    stop: () => supervisor.stop(),
    halt: () => supervisor.halt(),
    async assertNoActiveRun(streamId) {
      if ((await repo.listActive()).some((r) => r.streamId === streamId)) {
        throw AppError.conflict('A test run of this app is in progress: delete the app when it has ended');
      }
    },
  };
}
