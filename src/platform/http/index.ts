export {
  defineRoute,
  type RouteDef,
  type RouteContext,
  type RouteReply,
  type HttpMethod,
  type BodyType,
} from './route-def.js';
export { mountRoutes } from './mount-routes.js';
export { errorHandler, notFoundHandler, toAppError, type StoreOutageCheck } from './error-middleware.js';
export { buildOpenApi } from './openapi.js';
export { apiDocs } from './api-docs.js';
export { consolePages, type ConsolePagesOptions } from './console-pages.js';
export { traceContext } from './trace-context.js';
export { metricsGate } from './metrics-gate.js';
