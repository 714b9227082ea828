/**
 * The call inspector: a trace of every turn (recorded by the IVR turn loop through its
 * TurnTracePort, which this component implements), an app's calls and one call's timeline, and a
 * live feed of turns across instances. See docs/inspector.md.
 */
import type { Config, ConsoleSessionLookup, Logger, Metrics, RouteDef } from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { TurnTracePort } from '../tracing/index.js';
import { FeedHub } from './feed-hub.js';
import { InspectorRepository } from './inspector-repository.js';
import { inspectorRoutes } from './inspector-routes.js';
import { InspectorService } from './inspector-service.js';
import { TRACE_BATCH_DEFAULTS, TraceBatchWriter, type TraceBatchOptions } from './trace-batch-writer.js';

export { InspectorService } from './inspector-service.js';
export { FeedHub, HEARTBEAT_MS } from './feed-hub.js';
export type { CallSummary, CallOutcome } from './inspector-schemas.js';
export {
  TraceBatchWriter,
  TRACE_BATCH_DEFAULTS,
  type TraceBatchOptions,
  type TraceCounters,
} from './trace-batch-writer.js';
export { InspectorRepository } from './inspector-repository.js';
export { vxmlSchemaCheck, type SchemaCheck } from './vxml-schema-check.js';

export interface InspectorComponent {
  /** The turn loop's trace port; undefined when CALL_TRACE is off. */
  traces: TurnTracePort | undefined;
  service: InspectorService;
  /** This instance's live feeds (end a console session's feeds on sign-out; close on stop). */
  feeds: FeedHub;
  routes: RouteDef[];
  /** Writes the traces still buffered and stops taking more (graceful shutdown). */
  close(): Promise<void>;
  /** A step of deleting an app: its traces buffered on this instance are dropped, not written. */
  forgetApp(streamId: string): Promise<void>;
}

export function createInspectorComponent(deps: {
  config: Config;
  store: Store;
  requireApp: (streamId: string) => Promise<unknown>;
  /** Console sessions, re-checked by the feeds opened with one. */
  sessions?: ConsoleSessionLookup;
  logger?: Logger;
  /** Where the trace writer counts traces written and dropped (/metrics). */
  metrics?: Metrics;
  /** The trace writer's batching (tests). */
  traceBatch?: Partial<TraceBatchOptions>;
}): InspectorComponent {
  const { config } = deps;
  const repo = new InspectorRepository(deps.store, {
    ttlMs: config.callTraceTtlS * 1000,
    maxTurns: config.callTraceMaxTurns,
    documents: config.callTraceDocuments,
    instanceId: config.instanceId,
  });
  const m = deps.metrics;
  const counters = {
    written: (n: number) => m?.tracesWritten.inc(n),
    dropped: (n: number) => m?.tracesDropped.inc(n),
  };
  const writer = new TraceBatchWriter(
    repo,
    deps.store,
    counters,
    { ...TRACE_BATCH_DEFAULTS, ...deps.traceBatch },
    deps.logger,
  );
  repo.settle = () => writer.flush();
  const service = new InspectorService(repo);
  const { feedsPerSession, feedsPerInstance } = config.abuseLimits;
  const feeds = new FeedHub(
    repo,
    { perSession: feedsPerSession, perInstance: feedsPerInstance },
    deps.sessions,
    deps.logger,
  );
  return {
    traces: config.callTrace ? writer : undefined,
    service,
    feeds,
    routes: inspectorRoutes(service, feeds, deps.requireApp),
    close: () => writer.close(),
    forgetApp: (streamId) => writer.forgetApp(streamId),
  };
}
