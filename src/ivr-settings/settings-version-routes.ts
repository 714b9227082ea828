/**
 * Operator routes of the IVR settings' versions: every settings document stored (published, or a
 * draft saved with `PUT …/ivr-settings?publish=false`) is a version. The list, one version, a diff
 * between two, and publishing one (an earlier one is the rollback). Reads need the viewer role,
 * publishing the editor role.
 */
import { z } from 'zod';
import { defineRoute, isoNow, type RouteDef } from '../platform/index.js';
import {
  agentVersionList,
  agentVersionRecord,
  publishBody,
  savedByOf,
  versionReadRoutes,
} from '../admin/index.js';
import type { IvrConfigService } from './ivr-config-service.js';
import { ivrSettingsSchema } from './ivr-settings-schema.js';

const tags = ['operator', 'ivr'];
const versionParams = z
  .object({ streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>') })
  .extend({ version: z.string().regex(/^[0-9a-f]{16}$/, 'must be a version id (16 hex digits)') });

/** How a settings save is made: `publish=false` keeps it as a draft; `note` says what changed. */
export const settingsSaveQuery = z.object({
  publish: z
    .enum(['true', 'false'])
    .default('true')
    .describe('false: save a draft (calls keep the published settings; the sandbox may use the draft)'),
  note: z
    .string()
    .trim()
    .max(500)
    .optional()
    .describe('what this version changes, shown in the list of versions'),
});

/** The agent's list of versions, with what published and draft mean for settings. */
const settingsVersionList = agentVersionList.extend({
  versions: z
    .array(
      agentVersionRecord.extend({
        published: z.boolean().describe('calls use these settings'),
        draft: z.boolean().describe('the draft (the sandbox may use it)'),
      }),
    )
    .describe(
      'newest first; the newest 50 are kept, and the published version and the draft whatever their age',
    ),
  published: z.string().nullable().describe('null: the app runs with the defaults, never saved'),
});

export function settingsVersionRoutes(
  ivr: IvrConfigService,
  requireApp: (streamId: string) => Promise<unknown>,
): RouteDef[] {
  return [
    ...versionReadRoutes({
      path: 'ivr-settings',
      name: 'the IVR settings',
      possessive: "the IVR settings'",
      tags,
      schema: ivrSettingsSchema,
      listSchema: settingsVersionList,
      list: async (streamId) => {
        const [list, { published, draft }] = await Promise.all([
          ivr.versions.list(streamId),
          ivr.settingsPointers(streamId),
        ]);
        return {
          versions: list.map((v) => ({
            ...v,
            published: v.version === published,
            draft: v.version === draft,
          })),
          published,
          draft,
        };
      },
      version: (streamId, version) => ivr.versions.get(streamId, version),
      requireApp,
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/apps/:streamId/ivr-settings/versions/:version/publish',
      summary:
        'Publish a saved version of the IVR settings: calls use it at once (an earlier version: the rollback)',
      tags,
      auth: { kind: 'admin', role: 'editor' },
      params: versionParams,
      body: publishBody,
      audit: { state: ({ params: p }) => ivr.getSettings(p.streamId) },
      responses: {
        200: { description: 'the settings now published', schema: ivrSettingsSchema },
        404: { description: 'unknown app, or a version not kept' },
        409: { description: 'other writes kept changing the settings meanwhile; send it again' },
      },
      handler: async ({ params: p, body, principal }) => {
        await requireApp(p.streamId);
        const published = await ivr.publishSettings(p.streamId, p.version);
        await ivr.versions.markPublished(p.streamId, p.version, {
          at: isoNow(),
          by: savedByOf(principal),
          ...(body.note ? { note: body.note } : {}),
        });
        return { json: published };
      },
    }),
  ];
}
