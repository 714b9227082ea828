/** Operator routes of the admin component: apps, API apps, API keys, the agent definition. */
import { z } from 'zod';
import { AppError, defineRoute, type RouteDef } from '../platform/index.js';
import { agentDefinitionSchema } from '../agent/index.js';
import {
  agentSaveQuery,
  agentStatusAnswer,
  apiAppAnswer,
  apiAppParams,
  apiAppRecord,
  apiKeyAnswer,
  apiKeyParams,
  apiKeyRecord,
  appRecord,
  createApiAppBody,
  createApiKeyBody,
  createAppBody,
  streamIdParam,
} from './admin-schemas.js';
import type { AgentRegistry } from './agent-registry.js';
import { agentVersionRoutes, savedByOf } from './agent-version-routes.js';
import type { AppsService } from './apps-service.js';

const admin = { kind: 'admin' } as const;
const tags = ['operator'];

/** `agentMaxBytes`: the body limit of an agent upload (AGENT_MAX_BYTES), like 1mb. */
export function adminRoutes(
  apps: AppsService,
  agents: AgentRegistry,
  opts: { agentMaxBytes: string },
): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/admin/apps',
      summary: 'Create an app',
      tags,
      auth: admin,
      body: createAppBody,
      responses: { 201: { description: 'created', schema: appRecord } },
      handler: async ({ body }) => ({ status: 201, json: await apps.createApp(body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps',
      summary: 'List apps',
      tags,
      auth: admin,
      responses: {
        200: { description: 'apps', schema: z.object({ apps: z.array(appRecord), total: z.number() }) },
      },
      handler: async () => {
        const list = await apps.listApps();
        return { json: { apps: list, total: list.length } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId',
      summary: 'Read an app',
      tags,
      auth: admin,
      params: streamIdParam,
      responses: { 200: { description: 'the app', schema: appRecord } },
      handler: async ({ params }) => ({ json: await apps.requireApp(params.streamId) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/admin/apps/:streamId',
      summary: 'Delete an app and everything kept for it',
      tags,
      auth: admin,
      params: streamIdParam,
      responses: {
        204: {
          description:
            'deleted: the app, its agent, API apps, IVR channel and settings, sandbox (its number is free again), skill groups, test suites and runs, and its conversation history',
        },
        404: { description: 'unknown app' },
        409: { description: 'one of its test runs is in progress' },
      },
      handler: async ({ params }) => {
        await apps.deleteApp(params.streamId);
        agents.forget(params.streamId);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/apps/:streamId/api-apps',
      summary: 'Create an API app (JWT client)',
      tags,
      auth: admin,
      params: streamIdParam,
      body: createApiAppBody,
      responses: {
        201: { description: 'created; clientSecret is shown once', schema: apiAppAnswer },
        404: { description: 'unknown app' },
      },
      handler: async ({ params, body }) => ({
        status: 201,
        json: await apps.createApiApp(params.streamId, body),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/api-apps',
      summary: "List an app's API apps (without their secrets)",
      tags,
      auth: admin,
      params: streamIdParam,
      responses: {
        200: {
          description: 'its API apps, oldest first; the operator console\'s own is named "Operator console"',
          schema: z.object({ apiApps: z.array(apiAppRecord), total: z.number() }),
        },
        404: { description: 'unknown app' },
      },
      handler: async ({ params }) => {
        const list = await apps.listApiApps(params.streamId);
        return { json: { apiApps: list, total: list.length } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/admin/apps/:streamId/api-apps/:clientId',
      summary: 'Delete an API app: tokens signed with its secret are refused at once',
      tags,
      auth: admin,
      params: apiAppParams,
      responses: {
        204: { description: 'deleted' },
        400: { description: 'the app id or client id is malformed' },
        404: { description: 'unknown app, or the app has no API app with this client id' },
      },
      handler: async ({ params }) => {
        await apps.deleteApiApp(params.streamId, params.clientId);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/api-keys',
      summary: 'Create an API key for model connections',
      tags,
      auth: admin,
      body: createApiKeyBody,
      responses: { 201: { description: 'created; apiKey is shown once', schema: apiKeyAnswer } },
      handler: async ({ body }) => ({ status: 201, json: await apps.createApiKey(body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/api-keys',
      summary: 'List the API keys (never the keys themselves)',
      tags,
      auth: admin,
      responses: {
        200: {
          description:
            'every API key, oldest first; the operator console\'s own is named "Operator console". Keys made before this list existed are not in it',
          schema: z.object({ apiKeys: z.array(apiKeyRecord), total: z.number() }),
        },
      },
      handler: async () => {
        const list = await apps.listApiKeys();
        return { json: { apiKeys: list, total: list.length } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/admin/api-keys/:id',
      summary: 'Delete an API key: requests that send it are refused at once',
      tags,
      auth: admin,
      params: apiKeyParams,
      responses: {
        204: { description: 'deleted' },
        400: { description: 'the id is malformed' },
        404: { description: 'no API key has this id' },
      },
      handler: async ({ params }) => {
        await apps.deleteApiKey(params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/admin/apps/:streamId/agent',
      summary:
        'Save the agent definition as a new version (validated at once, trained in the background; published once trained unless publish=false)',
      tags,
      auth: admin,
      params: streamIdParam,
      query: agentSaveQuery,
      body: z.unknown(),
      documentedBody: agentDefinitionSchema,
      bodyLimit: { size: opts.agentMaxBytes, name: 'AGENT_MAX_BYTES' },
      // the trail records which versions changed (the definitions' diff is GET …/agent/versions/diff):
      // diffing two definitions of up to AGENT_MAX_BYTES on the event loop stalled every tenant's turns
      audit: { state: ({ params }) => agents.status(params.streamId) },
      responses: {
        202: {
          description:
            'accepted: its model trains while the live agent (if any) answers turns; then it goes live, or with publish=false becomes the draft (calls keep the published version; the sandbox may answer from the draft). The status, as GET …/agent/status answers it',
          schema: agentStatusAnswer,
        },
        400: {
          description:
            'every problem with its JSON path; code limit_exceeded when the agent has more intents, utterances or nodes than allowed (the message names the limit)',
        },
        413: { description: 'the body is larger than AGENT_MAX_BYTES' },
      },
      handler: async ({ params, query, body, principal }) => {
        await apps.requireApp(params.streamId);
        const status = await agents.put(params.streamId, body, {
          publish: query.publish !== 'false',
          savedBy: savedByOf(principal),
          ...(query.note ? { note: query.note } : {}),
        });
        return {
          status: 202,
          json: status,
          headers: { Location: `/api/admin/apps/${params.streamId}/agent/status` },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/agent/status',
      summary: "Which version of the agent is live, and its latest upload's training",
      tags,
      auth: admin,
      params: streamIdParam,
      responses: {
        200: { description: 'the status', schema: agentStatusAnswer },
        404: { description: 'no agent is set for this app' },
      },
      handler: async ({ params }) => {
        await apps.requireApp(params.streamId);
        const status = await agents.status(params.streamId);
        if (!status) throw AppError.notFound('No agent is set for this app');
        return { json: status };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/agent',
      summary: 'Read the agent definition',
      tags,
      auth: admin,
      params: streamIdParam,
      responses: {
        200: {
          description:
            'the latest accepted definition (also while it trains, or when its training failed: see …/agent/status)',
          schema: agentDefinitionSchema,
        },
        404: { description: 'no agent is set for this app' },
      },
      handler: async ({ params }) => {
        await apps.requireApp(params.streamId);
        const def = await agents.getDefinition(params.streamId);
        if (!def) throw AppError.notFound('No agent is set for this app');
        return { json: def };
      },
    }),
    ...agentVersionRoutes(apps, agents),
  ];
}
