/** Operator accounts component: invitations, passwords, console sign-in checks, personal API tokens, roles. */
export { AccountsService, INVITATION_TTL_MS } from './accounts-service.js';
export { accountsRoutes } from './accounts-routes.js';
