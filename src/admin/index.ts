/** Admin component: apps, API apps, API keys and agent definitions (the operator API core). */
export { AppsService } from './apps-service.js';
export { AgentRegistry, type AgentCacheEntry, type DefinitionCheck } from './agent-registry.js';
export { agentRecognizers, type AgentRecognizer } from './agent-recognizers.js';
export { adminRoutes } from './admin-routes.js';
export { streamIdParam, type AppRecord } from './admin-schemas.js';
export { benchFloorRoute } from './bench-floor-route.js';
