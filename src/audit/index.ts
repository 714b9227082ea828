/** Audit trail component: every change made through the operator API, who made it and a diff. */
export { AuditService } from './audit-service.js';
export { auditRoutes } from './audit-routes.js';
export type { AuditEntry } from './audit-schemas.js';
