/** Operator console component: sign-in sessions (the console's pages are served by platform/http). */
export { ConsoleService } from './console-service.js';
export { consoleRoutes } from './console-routes.js';
