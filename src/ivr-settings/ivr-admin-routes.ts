/** Operator routes of the IVR channel and settings. */
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../platform/index.js';
import { savedByOf } from '../admin/index.js';
import { dialectNames, dialectProfiles } from '../vxml/index.js';
import type { IvrConfigService } from './ivr-config-service.js';
import { channelBody, ivrSettingsSchema, mintTokenBody } from './ivr-settings-schema.js';
import { describedIvrSettings } from './ivr-settings-help.js';
import { ivrSettingsPatchSchema } from './settings-patch.js';
import { settingsSaveQuery, settingsVersionRoutes } from './settings-version-routes.js';

const admin = { kind: 'admin' } as const;
const tags = ['operator', 'ivr'];
const params = z.object({ streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>') });
const channelAnswer = z.object({
  enabled: z.boolean(),
  webhookUrl: z.url(),
  clientId: z.string(),
  allowTokensWithoutExpiry: z.boolean(),
  clientSecret: z
    .string()
    .optional()
    .meta({ description: 'the JWT signing secret: only in the answer that created the channel' }),
});
const rotatedChannel = channelAnswer.required({ clientSecret: true });
const channelView = z.object({
  enabled: z.boolean(),
  webhookUrl: z.url().optional(),
  clientId: z.string().optional(),
  allowTokensWithoutExpiry: z.boolean().optional(),
});
const mintedToken = z.object({ token: z.string(), expiresAt: z.string(), webhookUrl: z.url() });
const dialectView = z.object({
  name: z.enum(dialectNames),
  title: z.string(),
  builtins: z.object({ voice: z.array(z.string()), dtmf: z.array(z.string()) }).meta({
    description:
      'the builtin grammar types the documents use per mode (any other entity gets an SRGS grammar)',
  }),
  transcription: z
    .boolean()
    .meta({ description: 'whether the browser transcribes free speech (else free answers are recorded)' }),
  transferStyle: z.enum(['type', 'bridge']),
  facts: z.array(
    z.object({
      what: z.string(),
      source: z.string(),
      confidence: z.enum(['verified', 'documented', 'assumed']),
    }),
  ),
});
/** The dialect profiles as the API shows them: what a browser of each has, what the documents rely on. */
const dialects = dialectNames.map((name) => {
  const p = dialectProfiles[name];
  return {
    name,
    title: p.title,
    builtins: { voice: [...p.builtins.voice], dtmf: [...p.builtins.dtmf] },
    transcription: p.transcription !== null,
    transferStyle: p.transferStyle,
    facts: p.facts.map((f) => ({ ...f })),
  };
});

export function ivrAdminRoutes(
  ivr: IvrConfigService,
  requireApp: (streamId: string) => Promise<unknown>,
): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/admin/ivr/dialects',
      summary: 'List the VoiceXML browser profiles (the IVR setting dialect)',
      tags,
      auth: admin,
      responses: {
        200: {
          description:
            "each profile: the builtin grammars and transcription its browsers have, the transfer attribute, and the facts behind it with their sources; the console's web caller emulates a browser from it",
          schema: z.object({ dialects: z.array(dialectView) }),
        },
      },
      handler: async () => ({ json: { dialects } }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/admin/apps/:streamId/channels/ivr',
      summary: 'Enable or disable the IVR channel',
      tags,
      auth: admin,
      params,
      body: channelBody,
      responses: {
        200: {
          description:
            'webhookUrl and clientId; clientSecret (the JWT signing secret) only when this request created the channel',
          schema: channelAnswer,
        },
      },
      handler: async ({ params: p, body, baseUrl }) => {
        await requireApp(p.streamId);
        return { json: await ivr.setChannel(p.streamId, body, baseUrl) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/apps/:streamId/channels/ivr/rotate-secret',
      summary: 'Replace the IVR channel secret and show the new one',
      tags,
      auth: admin,
      params,
      responses: {
        200: {
          description:
            'the channel with its new clientSecret; tokens signed with the old secret are refused from now on',
          schema: rotatedChannel,
        },
        404: { description: 'unknown app, or no IVR channel yet' },
      },
      handler: async ({ params: p, baseUrl }) => {
        await requireApp(p.streamId);
        return { json: await ivr.rotateSecret(p.streamId, baseUrl) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/apps/:streamId/channels/ivr/tokens',
      summary: 'Mint a webhook token (with an expiry) for a VXML platform',
      tags,
      auth: admin,
      params,
      body: mintTokenBody,
      responses: {
        201: {
          description: 'the token, when it expires, and the webhook URL carrying it',
          schema: mintedToken,
        },
        404: { description: 'unknown app, or no IVR channel yet' },
      },
      handler: async ({ params: p, body, baseUrl }) => {
        await requireApp(p.streamId);
        return { status: 201, json: await ivr.mintToken(p.streamId, body, baseUrl) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/channels/ivr',
      summary: 'Read the IVR channel (without the secret)',
      tags,
      auth: admin,
      params,
      responses: {
        200: {
          description: 'the channel, or {enabled: false} when it was never set up',
          schema: channelView,
        },
      },
      handler: async ({ params: p, baseUrl }) => {
        await requireApp(p.streamId);
        const ch = await ivr.repo.findChannel(p.streamId);
        return {
          json: ch
            ? {
                enabled: ch.enabled,
                webhookUrl: `${baseUrl}/ivr/hooks/${p.streamId}`,
                clientId: ch.clientId,
                allowTokensWithoutExpiry: ch.allowTokensWithoutExpiry,
              }
            : { enabled: false },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/ivr-settings',
      summary: 'Read the effective IVR settings',
      tags,
      auth: admin,
      params,
      responses: {
        200: {
          description:
            'the effective settings: the stored ones with every default filled in, or the defaults (calls enabled) when none were saved',
          schema: ivrSettingsSchema,
        },
      },
      handler: async ({ params: p }) => {
        await requireApp(p.streamId);
        return { json: await ivr.getSettings(p.streamId) };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/admin/apps/:streamId/ivr-settings',
      summary:
        'Replace the IVR settings (what the body leaves out takes its default; enabled, left out, stays as it was); with publish=false, save them as a draft',
      tags,
      auth: admin,
      params,
      query: settingsSaveQuery,
      body: z.unknown(),
      documentedBody: describedIvrSettings(),
      audit: {
        state: async ({ params: p, query }) =>
          query.publish === 'false'
            ? { draft: await ivr.draftSettings(p.streamId) }
            : ivr.getSettings(p.streamId),
      },
      responses: {
        200: {
          description:
            'the stored settings (published, or with publish=false the draft: calls keep the published ones)',
          schema: ivrSettingsSchema,
        },
        400: { description: 'every problem with its path' },
      },
      handler: async ({ params: p, query, body, principal }) => {
        await requireApp(p.streamId);
        return {
          json: await ivr.putSettings(p.streamId, body, {
            savedBy: savedByOf(principal),
            publish: query.publish !== 'false',
            ...(query.note ? { note: query.note } : {}),
          }),
        };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/admin/apps/:streamId/ivr-settings',
      summary: 'Change some IVR settings with a JSON merge patch (RFC 7386)',
      tags,
      auth: admin,
      params,
      body: z.unknown(),
      documentedBody: ivrSettingsPatchSchema,
      bodyTypes: ['mergePatch', 'json'],
      audit: { state: ({ params: p }) => ivr.getSettings(p.streamId) },
      responses: {
        200: { description: 'the effective settings after the patch', schema: ivrSettingsSchema },
        400: {
          description:
            'every problem with its path (body.<path>): an unknown member, a bad value, or a result that is not valid settings',
        },
        409: { description: 'other writes kept changing the settings meanwhile; send it again' },
      },
      handler: async ({ params: p, body, principal }) => {
        await requireApp(p.streamId);
        return { json: await ivr.patchSettings(p.streamId, body, { savedBy: savedByOf(principal) }) };
      },
    }),
    ...settingsVersionRoutes(ivr, requireApp),
  ];
}
