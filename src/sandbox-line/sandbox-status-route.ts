/**
 * The operator's read of the test sandbox without its secrets: whether it is on, its number, its
 * line limit and how many lines calls hold now. (The PIN and secret are answered only by the PUT
 * that enables it.)
 */
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../platform/index.js';
import type { SandboxService } from './sandbox-service.js';

const params = z.object({ streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>') });
const statusAnswer = z.object({
  enabled: z.boolean(),
  phoneNumber: z.string(),
  maxConcurrentCalls: z.number(),
  linesInUse: z.number(),
});

export function sandboxStatusRoute(
  sandbox: SandboxService,
  requireApp: (streamId: string) => Promise<unknown>,
): RouteDef {
  return defineRoute({
    method: 'get',
    path: '/api/admin/apps/:streamId/ivr-sandbox/status',
    summary: 'Read the test sandbox (without PIN and secret) and its lines in use',
    tags: ['operator', 'ivr'],
    auth: { kind: 'admin' },
    params,
    responses: {
      200: {
        description: 'the sandbox; enabled false and no number when it was never enabled',
        schema: statusAnswer,
      },
      404: { description: 'unknown app' },
    },
    handler: async ({ params: p }) => {
      await requireApp(p.streamId);
      const rec = await sandbox.repo.find(p.streamId);
      const linesInUse = await sandbox.linesInUse(p.streamId);
      return {
        json: rec
          ? {
              enabled: rec.enabled,
              phoneNumber: rec.enabled ? rec.phoneNumber : '',
              maxConcurrentCalls: rec.maxConcurrentCalls,
              linesInUse,
            }
          : { enabled: false, phoneNumber: '', maxConcurrentCalls: 0, linesInUse },
      };
    },
  });
}
