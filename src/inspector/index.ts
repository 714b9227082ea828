/**
 * The call inspector: a trace of every turn (recorded by the IVR turn loop through its
 * TurnTracePort, which this component implements), an app's calls and one call's timeline, and a
 * live feed of turns across instances. See docs/inspector.md.
 */
import type { Config, RouteDef } from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { TurnTracePort } from '../ivr/index.js';
import { InspectorRepository } from './inspector-repository.js';
import { inspectorRoutes } from './inspector-routes.js';
import { InspectorService } from './inspector-service.js';

export { InspectorService } from './inspector-service.js';
export type { CallSummary, CallOutcome } from './inspector-schemas.js';
export { vxmlSchemaCheck, type SchemaCheck } from './vxml-schema-check.js';

export interface InspectorComponent {
  /** The turn loop's trace port; undefined when CALL_TRACE is off. */
  traces: TurnTracePort | undefined;
  service: InspectorService;
  routes: RouteDef[];
}

export function createInspectorComponent(deps: { config: Config; store: Store; requireApp: (streamId: string) => Promise<unknown> }): InspectorComponent {
  const { config } = deps;
  const repo = new InspectorRepository(deps.store, {
    ttlMs: config.callTraceTtlS * 1000,
    maxTurns: config.callTraceMaxTurns,
    documents: config.callTraceDocuments,
    instanceId: config.instanceId,
  });
  const service = new InspectorService(repo);
  return { traces: config.callTrace ? repo : undefined, service, routes: inspectorRoutes(service, deps.requireApp) };
}
