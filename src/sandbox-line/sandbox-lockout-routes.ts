/** Operator routes of the sandbox's lockouts: who is refused at the app's number, until when; and ending them. */
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../platform/index.js';
import type { SandboxService } from './sandbox-service.js';

const params = z.object({ streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>') });
const tags = ['operator', 'ivr'];
const kinds = ['number', 'address', 'caller'] as const;

const lockout = z.object({
  kind: z.enum(kinds).meta({
    description:
      'number: the sandbox number (every caller); address: a client address (every sandbox number); caller: one from at one address',
  }),
  state: z.enum(['locked', 'slowed']).meta({
    description: 'slowed: the number took too many wrong entries this minute; locked: refused until `until`',
  }),
  phoneNumber: z.string().optional(),
  address: z
    .string()
    .optional()
    .meta({ description: 'the client address (behind a trusted proxy, the one it saw)' }),
  from: z.string().optional().meta({ description: 'the `from` the caller sent' }),
  wrongEntries: z.number().int(),
  until: z.string().meta({ description: 'when it ends by itself (ISO 8601)' }),
});

const filter = z.strictObject({
  kind: z.enum(kinds).optional(),
  address: z.string().min(1).max(64).optional(),
  from: z.string().min(1).max(64).optional(),
});

export function sandboxLockoutRoutes(
  sandbox: SandboxService,
  requireApp: (streamId: string) => Promise<unknown>,
): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/ivr-sandbox/lockouts',
      summary: 'List who is slowed or locked out at the sandbox number, and until when',
      tags,
      auth: { kind: 'admin' },
      params,
      responses: {
        200: {
          description:
            'the lockouts refusing logins to the number now; truncated when there were more counters than a listing looks at',
          schema: z.object({ phoneNumber: z.string(), lockouts: z.array(lockout), truncated: z.boolean() }),
        },
        404: { description: 'unknown app, or no sandbox yet' },
        422: { description: 'not available on-premise' },
      },
      handler: async ({ params: p }) => {
        await requireApp(p.streamId);
        return { json: await sandbox.lockouts(p.streamId) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/admin/apps/:streamId/ivr-sandbox/lockouts',
      summary: 'End lockouts at the sandbox number (all, or those the query names)',
      tags,
      auth: { kind: 'admin' },
      params,
      query: filter,
      responses: {
        200: {
          description: 'the lockouts ended (their wrong entries count from zero again)',
          schema: z.object({ phoneNumber: z.string(), cleared: z.array(lockout) }),
        },
        400: { description: 'an unknown or bad query parameter' },
        404: { description: 'unknown app, or no sandbox yet' },
        422: { description: 'not available on-premise' },
      },
      handler: async ({ params: p, query }) => {
        await requireApp(p.streamId);
        return { json: await sandbox.clearLockouts(p.streamId, query) };
      },
    }),
  ];
}
