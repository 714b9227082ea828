/** Routes of the model connections: list, read, create and update them (`x-api-key`, scoped). */
import { defineRoute, type RouteDef } from '../platform/index.js';
import {
  connectionIdParam,
  createAnswer,
  createConnectionBody,
  getAnswer,
  listAnswer,
  listConnectionsQuery,
  patchConnectionBody,
  updateAnswer,
} from './connections-schemas.js';
import type { ConnectionsService } from './connections-service.js';
import type { EndpointGuard } from './endpoint-guard.js';

const view = { kind: 'apiKey', scope: 'connections:view' } as const;
const manage = { kind: 'apiKey', scope: 'connections:manage' } as const;
const tags = ['connections'];
const PATH = '/api/public/connections';

export function connectionsRoutes(service: ConnectionsService, guard: EndpointGuard): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: PATH,
      summary: 'List model connections (newest first, without fields)',
      tags,
      auth: view,
      query: listConnectionsQuery,
      responses: {
        200: { description: 'connections and the number of matches', schema: listAnswer },
        400: { description: 'bad filter' },
      },
      handler: async ({ query }) => ({ json: await service.list(query) }),
    }),
    defineRoute({
      method: 'get',
      path: `${PATH}/:connectionId`,
      summary: 'Read a model connection (fields masked)',
      tags,
      auth: view,
      params: connectionIdParam,
      responses: {
        200: { description: 'the connection', schema: getAnswer },
        404: { description: 'unknown connection' },
      },
      handler: async ({ params }) => ({ json: await service.get(params.connectionId) }),
    }),
    defineRoute({
      method: 'post',
      path: PATH,
      summary: 'Create a model connection',
      tags,
      auth: manage,
      body: createConnectionBody(guard),
      responses: {
        201: { description: 'created (fields masked)', schema: createAnswer },
        400: { description: 'every problem with its path' },
      },
      handler: async ({ body }) => ({ status: 201, json: await service.create(body) }),
    }),
    defineRoute({
      method: 'patch',
      path: `${PATH}/:connectionId`,
      summary: 'Update the fields (API key) of a hosted-provider connection',
      tags,
      auth: manage,
      params: connectionIdParam,
      body: patchConnectionBody,
      responses: {
        200: { description: 'updated (fields masked)', schema: updateAnswer },
        404: { description: 'unknown connection' },
        422: { description: 'API connections cannot be updated' },
      },
      handler: async ({ params, body }) => ({
        json: await service.updateFields(params.connectionId, body.fields),
      }),
    }),
  ];
}
