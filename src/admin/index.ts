/** Admin component: apps, API apps, API keys and agent definitions (the operator API core). */
export { AppsService } from './apps-service.js';
export { AgentRegistry, type AgentCacheEntry, type AgentRegistryOptions, type DefinitionCheck } from './agent-registry.js';
export { createTrainingPool, type TrainingPool } from './training-pool.js';
export type { AgentLimits } from './agent-limits.js';
export { agentRecognizers, type AgentRecognizer } from './agent-recognizers.js';
export { adminRoutes } from './admin-routes.js';
export { streamIdParam, type AppRecord, type AgentStatus } from './admin-schemas.js';
export { benchFloorRoute } from './bench-floor-route.js';
