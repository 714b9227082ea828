/** Admin component: apps, API apps, API keys and agent definitions (the operator API core). */
export { AppsService } from './apps-service.js';
export {
  AgentRegistry,
  type AgentAudience,
  type AgentCacheEntry,
  type AgentRegistryOptions,
  type DefinitionCheck,
} from './agent-registry.js';
export { createTrainingPool, type TrainingPool } from './training-pool.js';
export type { AgentLimits } from './agent-limits.js';
export { agentRecognizers, type AgentRecognizer } from './agent-recognizers.js';
export { adminRoutes } from './admin-routes.js';
export { savedByOf } from './agent-version-routes.js';
export { versionReadRoutes, type VersionedDocument } from './version-read-routes.js';
export {
  streamIdParam,
  publishBody,
  publishedRecord,
  versionDiff,
  versionDiffQuery,
  agentVersionList,
  agentVersionRecord,
  type AppRecord,
  type AgentStatus,
} from './admin-schemas.js';
export { benchFloorRoute } from './bench-floor-route.js';
export { VersionLog, VERSIONS_KEPT, type VersionRecord, type VersionLogKeys } from './version-log.js';
