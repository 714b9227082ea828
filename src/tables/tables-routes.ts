/** Routes of the data-table component: the operator's definition and the public insert. */
import { AppError, defineRoute, type RateLimitGate, type RouteDef } from '../platform/index.js';
import {
  insertBody,
  publicTableNameParam,
  recordAnswer,
  tableDefinitionAnswer,
  tableDefinitionBody,
  tableNameParam,
} from './tables-schemas.js';
import type { TablesService } from './tables-service.js';

const admin = { kind: 'admin' } as const;

export function tablesRoutes(service: TablesService, gate: RateLimitGate): RouteDef[] {
  return [
    defineRoute({
      method: 'put',
      path: '/api/admin/tables/:tableName',
      summary: 'Define (or redefine) a data table; rows are kept',
      tags: ['operator'],
      auth: admin,
      params: tableNameParam,
      body: tableDefinitionBody,
      responses: {
        200: { description: 'the stored definition', schema: tableDefinitionAnswer },
        400: { description: 'every problem with its path' },
        409: { description: 'existing rows hold duplicates of a column made unique' },
      },
      handler: async ({ params, body }) => ({ json: await service.define(params.tableName, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/tables/:tableName',
      summary: 'Read a table definition',
      tags: ['operator'],
      auth: admin,
      params: tableNameParam,
      responses: {
        200: { description: 'the stored definition', schema: tableDefinitionAnswer },
        404: { description: 'unknown table' },
      },
      handler: async ({ params }) => ({ json: await service.getDefinition(params.tableName) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/public/tables/:tableName',
      summary: 'Insert one record into a data table',
      tags: ['tables'],
      auth: { kind: 'jwt', scope: 'tables' },
      params: publicTableNameParam,
      body: insertBody,
      responses: {
        201: {
          description: 'the stored record in clear: submitted columns, defaults and system members',
          schema: recordAnswer,
        },
        400: { description: 'every bad member with its path body.data.<column>' },
        403: { description: 'no tables scope, or no write access to the table' },
        404: { description: 'unknown table' },
        409: { description: 'duplicate value in a unique column' },
        429: { description: 'rate limited per account and table (Retry-After)' },
      },
      handler: async ({ params, body, principal }) => {
        if (principal.kind !== 'app') throw AppError.unauthorized();
        await gate.check(`${principal.streamId}:${params.tableName}`);
        return {
          status: 201,
          json: await service.insert(principal.streamId, params.tableName, body.data, 'body.data'),
        };
      },
    }),
  ];
}
