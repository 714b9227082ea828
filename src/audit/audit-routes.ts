/** The audit trail's API: the listing with its filters, and the retention setting (owners change it). */
import { defineRoute, type RouteDef } from '../platform/index.js';
import { auditPage, auditQuery, auditSettings } from './audit-schemas.js';
import type { AuditService } from './audit-service.js';

const tags = ['audit'];

export function auditRoutes(service: AuditService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/admin/audit',
      summary: 'List the changes made through the operator API, newest first',
      tags,
      auth: { kind: 'admin', role: 'viewer' },
      query: auditQuery,
      responses: {
        200: { description: 'a page of entries (secrets redacted in every diff)', schema: auditPage },
      },
      handler: async ({ query }) => ({ json: await service.list(query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/audit/settings',
      summary: 'Read how long audit entries are kept',
      tags,
      auth: { kind: 'admin', role: 'viewer' },
      responses: { 200: { description: 'the retention', schema: auditSettings } },
      handler: async () => ({ json: await service.settings() }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/admin/audit/settings',
      summary: 'Set how long audit entries are kept (older ones are removed at once)',
      tags,
      auth: { kind: 'admin', role: 'owner' },
      body: auditSettings,
      audit: { state: () => service.settings() },
      responses: { 200: { description: 'the retention', schema: auditSettings } },
      handler: async ({ body }) => ({ json: await service.saveSettings(body) }),
    }),
  ];
}
