/** Routes of the assist component: the public skill-group import and the operator's read-back. */
import { z } from 'zod';
import { defineRoute, type RateLimitGate, type RouteDef } from '../platform/index.js';
import { streamIdParam } from '../admin/index.js';
import {
  botIdParam,
  importAnswer,
  importBodySchema,
  importQuery,
  readBackAnswer,
  readBackQuery,
} from './assist-schemas.js';
import type { AssistService } from './assist-service.js';

const firstHeader = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function assistRoutes(service: AssistService, gate: RateLimitGate): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/assist/api/v1/public/analytics/:botId/storeAssistFunctionalities',
      summary: 'Import skill groups into the contact-center feature of an app',
      tags: ['assist'],
      auth: { kind: 'jwt', scope: 'assist-import-export', appParam: 'botId' },
      params: botIdParam,
      query: importQuery,
      // Checked in the service, after the type, so paths read body.data[0].skills[1].iId.
      body: z.unknown(),
      documentedBody: importBodySchema,
      responses: {
        200: { description: 'a success message with the count', schema: importAnswer },
        400: {
          description:
            'every problem with its path; mismatching accountId/orgId/type; type not supported yet',
        },
        429: { description: 'rate limited per bot (Retry-After)' },
      },
      handler: async ({ params, query, headers, body }) => {
        const streamId = params.botId; // the public path calls the app's streamId botId
        await gate.check(streamId);
        const headerAccountId = firstHeader(headers['accountid']);
        return { json: await service.importFunctionalities({ streamId, query, headerAccountId, body }) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/skill-groups',
      summary: 'Read back imported skill groups',
      tags: ['operator'],
      auth: { kind: 'admin' },
      params: streamIdParam,
      query: readBackQuery,
      responses: {
        200: { description: 'what the import stored', schema: readBackAnswer },
        404: { description: 'unknown app' },
      },
      handler: async ({ params, query }) => ({
        json: await service.readBack(params.streamId, query.accountId, query.orgId),
      }),
    }),
  ];
}
