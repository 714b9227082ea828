/**
 * Conversation history routes: GET and POST of getMessages (v1) and getMessagesV2 (v2) under
 * /api/public/bot/:botId, and the Admin Console form POST /api/public/getMessages whose app is the
 * JWT's. `auth` JWT with scope chat-history; the path's botId (the public paths' name for the app's
 * streamId) must be the token's app. Rate limited per app (60/min, 1800/h by default).
 */
import { z } from 'zod';
import { defineRoute, type RateLimitGate, type RouteDef } from '../platform/index.js';
import {
  getQuerySchema,
  historyAnswer,
  postBodySchema,
  type HistoryParams,
  type HistoryVersion,
} from './history-schemas.js';
import type { HistoryService } from './history-service.js';

const tags = ['conversation history'];
const botIdParam = z.object({ botId: z.string().min(1).max(100) });
const responses = {
  200: { description: 'a page of messages', schema: historyAnswer },
  400: { description: 'invalid parameters, one entry per problem with its path' },
  401: { description: 'missing or invalid JWT, or a token of another app' },
  403: { description: 'the API app lacks the chat-history scope' },
  404: { description: 'msgId unknown' },
  429: { description: 'rate limited (Retry-After)' },
};

export function historyRoutes(service: HistoryService, gate: RateLimitGate): RouteDef[] {
  const serve = async (
    streamId: string,
    version: HistoryVersion,
    params: HistoryParams,
    where: 'query' | 'body',
  ) => {
    await gate.check(streamId);
    return { json: await service.getMessages(streamId, version, params, where) };
  };
  const routes: RouteDef[] = [];
  for (const version of ['v1', 'v2'] as const) {
    const path = `/api/public/bot/:botId/${version === 'v1' ? 'getMessages' : 'getMessagesV2'}`;
    const auth = { kind: 'jwt', scope: 'chat-history', appParam: 'botId' } as const;
    routes.push(
      defineRoute({
        method: 'get',
        path,
        summary: `Conversation history ${version} (query filters)`,
        tags,
        auth,
        params: botIdParam,
        query: getQuerySchema(version),
        responses,
        handler: ({ params: { botId: streamId }, query }) => serve(streamId, version, query, 'query'),
      }),
      defineRoute({
        method: 'post',
        path,
        summary: `Conversation history ${version} (body filters)`,
        tags,
        auth,
        params: botIdParam,
        body: postBodySchema(version),
        mergeQueryIntoBody: true,
        responses,
        handler: ({ params: { botId: streamId }, body }) => serve(streamId, version, body, 'body'),
      }),
    );
  }
  routes.push(
    defineRoute({
      method: 'post',
      path: '/api/public/getMessages',
      summary: 'Conversation history v1, Admin Console form (app of the JWT)',
      tags,
      auth: { kind: 'jwt', scope: 'chat-history' },
      body: postBodySchema('v1'),
      mergeQueryIntoBody: true,
      responses,
      handler: ({ principal, body }) => {
        if (principal.kind !== 'app') throw new Error('unreachable: jwt auth yields an app principal');
        return serve(principal.streamId, 'v1', body, 'body');
      },
    }),
  );
  return routes;
}
