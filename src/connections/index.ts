/** Model connections: the public routes and the LLM port the agent's llm node uses. */
export {
  createConnectionsComponent,
  type ConnectionsComponent,
  type ConnectionsDeps,
} from './connections-component.js';
export { createLlmClient, type LlmClientDeps, type ProviderBaseUrls } from './llm-client.js';
export { LlmError, type LlmErrorCode } from './llm-error.js';
export { ConnectionsService } from './connections-service.js';
export { connectionsRoutes } from './connections-routes.js';
export {
  createEndpointGuard,
  type EndpointGuard,
  type HostLookup,
  type ResolvedAddress,
} from './endpoint-guard.js';
export { isPrivateAddress } from './private-address.js';
export { maskSecret, type MaskStyle } from './secret-mask.js';
export type { ConnectionRecord, Provider, ConnectionStatus } from './connection-record.js';
export type { LlmPort } from '../agent/index.js';
