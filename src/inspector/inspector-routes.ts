/**
 * The call inspector's operator routes (admin auth) under /api/admin/apps/:streamId/calls: the
 * app's calls, one call's timeline, and the live feed of traced turns (Server-Sent Events); and the
 * schema check of a document (/api/admin/vxml/validate), the Call page's validity mark.
 */
import { z } from 'zod';
import { AppError, consoleSessionIdOf, defineRoute, type RouteDef } from '../platform/index.js';
import type { FeedHub } from './feed-hub.js';
import {
  callList,
  callParams,
  callTimeline,
  feedQuery,
  feedTurn,
  listQuery,
  streamIdParams,
} from './inspector-schemas.js';
import type { InspectorService } from './inspector-service.js';
import { vxmlSchemaCheck } from './vxml-schema-check.js';

const tags = ['operator', 'call inspector'];
const auth = { kind: 'admin' } as const;
const EVENT_ID = /^\d{1,20}-\d{1,20}$/;
const validateBody = z.object({
  xml: z
    .string()
    .min(1)
    .max(1_000_000)
    .meta({ description: 'the document: VoiceXML, or with schema srgs a standalone SRGS grammar' }),
  schema: z
    .enum(['vxml', 'srgs'])
    .default('vxml')
    .meta({ description: 'vxml: against vxml.xsd (VoiceXML 2.1); srgs: against grammar.xsd (SRGS 1.0)' }),
});
const validateAnswer = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()).meta({ description: "libxml2's messages, one per problem" }),
});

export function inspectorRoutes(
  service: InspectorService,
  feeds: FeedHub,
  requireApp: (streamId: string) => Promise<unknown>,
): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/admin/vxml/validate',
      summary: 'Check a document against the W3C VoiceXML 2.1 schema (or SRGS 1.0 for a grammar)',
      tags,
      auth: { kind: 'admin', role: 'viewer' },
      audit: false,
      body: validateBody, // a check that changes nothing
      responses: {
        200: {
          description:
            'whether the document is valid, and why not (a document that is not XML at all is reported as invalid)',
          schema: validateAnswer,
        },
        400: { description: 'no document, or more than 1,000,000 characters' },
      },
      handler: async ({ body }) => ({ json: await vxmlSchemaCheck(body.xml, body.schema) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/calls',
      summary: "List an app's traced calls, newest first (filters, cursor paging)",
      tags,
      auth,
      params: streamIdParams,
      query: listQuery,
      responses: {
        200: { description: 'a page of calls and the cursor of the next', schema: callList },
        400: { description: 'a bad filter or cursor' },
        404: { description: 'unknown app' },
      },
      handler: async ({ params, query }) => {
        await requireApp(params.streamId);
        return { json: await service.list(params.streamId, query) };
      },
    }),
    // before /calls/:callId, which would take "feed" for a call id
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/calls/feed',
      summary: 'Live feed of traced turns of the app (Server-Sent Events, across instances)',
      tags,
      auth,
      params: streamIdParams,
      query: feedQuery,
      responses: {
        200: {
          description:
            'text/event-stream: per traced turn `id: <event id>`, `event: turn`, `data: {callId, trace, summary}` (the trace without its document XML); a `: heartbeat` comment every 15 s while idle. A Last-Event-ID header (or lastEventId) resumes after that event, with nothing missed. A feed opened with the console cookie ends (`event: end`, data `{"reason":"session_ended"}`) when its session does; a client that reads too slowly gets `{"reason":"too_slow"}` and resumes by Last-Event-ID. The schema is that of each `turn` event\'s data.',
          contentType: 'text/event-stream',
          schema: feedTurn,
        },
        400: { description: 'a bad Last-Event-ID' },
        404: { description: 'unknown app' },
        429: {
          description:
            'too many live feeds: FEEDS_MAX_PER_SESSION for this console session (or Bearer caller address), or FEEDS_MAX_PER_INSTANCE on this instance; Retry-After says when to try again',
        },
      },
      handler: async ({ params, query, headers, signal, ip }) => {
        await requireApp(params.streamId);
        const header = headers['last-event-id'];
        const lastEventId = (Array.isArray(header) ? header[0] : header)?.trim() || query.lastEventId;
        if (lastEventId !== undefined && !EVENT_ID.test(lastEventId))
          throw AppError.badRequest(
            'Last-Event-ID must be an event id of this feed (<ms>-<seq>)',
            'headers.last-event-id',
          );
        // a feed opened with the console cookie (no Authorization header: see auth.ts) lives as long as its session
        const sessionId = headers.authorization === undefined ? consoleSessionIdOf(headers) : undefined;
        const events = await feeds.feed({
          streamId: params.streamId,
          signal,
          owner: sessionId ? `session:${sessionId}` : `address:${ip}`,
          ...(sessionId ? { sessionId } : {}),
          ...(lastEventId ? { lastEventId } : {}),
          ...(query.callId ? { callId: query.callId } : {}),
        });
        return { events };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/calls/:callId',
      summary: "A call's timeline: its summary and every turn's trace",
      tags,
      auth,
      params: callParams,
      query: z.object({}).strict(),
      responses: {
        200: { description: 'the call and its turns, oldest first', schema: callTimeline },
        404: { description: 'unknown app, or no trace of the call' },
      },
      handler: async ({ params }) => {
        await requireApp(params.streamId);
        return { json: await service.timeline(params.streamId, params.callId) };
      },
    }),
  ];
}
