/**
 * `/ivr/grammars/entity.grxml`: the gateway's own entity grammars (number, date, digits, boolean) as
 * standalone SRGS documents, which ask documents name by URL. They hold nothing of any app, so
 * they need no token, and a browser may keep them (revalidating by ETag).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../platform/index.js';
import { renderEntityGrammarDocument } from '../vxml/index.js';

const lengthParam = z.coerce.number().int().min(1).max(64).optional();

export function grammarRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/ivr/grammars/entity.grxml',
      summary: 'An entity grammar the gateway writes itself (number, date, digits, boolean), as SRGS 1.0',
      tags: ['ivr'],
      auth: { kind: 'none' },
      query: z.strictObject({
        entity: z.enum(['number', 'date', 'digits', 'boolean']),
        mode: z.enum(['voice', 'dtmf']),
        minLength: lengthParam,
        maxLength: lengthParam,
        lang: z
          .string()
          .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'a language tag such as en-US')
          .optional(),
      }),
      responses: {
        200: { description: 'a standalone SRGS 1.0 grammar', contentType: 'application/srgs+xml' },
      },
      handler: async ({ query }) => {
        const markup = renderEntityGrammarDocument(query);
        const etag = `"${createHash('sha256').update(markup).digest('base64url').slice(0, 16)}"`;
        return {
          xml: markup,
          contentType: 'application/srgs+xml; charset=utf-8',
          headers: { 'Cache-Control': 'public, max-age=3600', ETag: etag },
        };
      },
    }),
  ];
}
