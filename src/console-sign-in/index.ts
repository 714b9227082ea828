/** Console sign-in component: the operator console's sign-in sessions and the console's own API credentials (its pages are served by platform/http). */
export { ConsoleService } from './console-service.js';
export { consoleRoutes } from './console-routes.js';
export { ConsoleCredentials, type CredentialMaker } from './console-credentials.js';
