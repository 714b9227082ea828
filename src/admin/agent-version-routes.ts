/**
 * Operator routes of the agent's versions: the list, one version's definition, a diff between two
 * (version-read-routes.ts, shared with the IVR settings), and publishing one (an earlier one is the rollback). Saving a draft is `PUT …/agent?publish=false`
 * (admin-routes.ts). Reads need the viewer role, publishing the editor role.
 */
import { auditAuthorOf, defineRoute, isoNow, type Principal, type RouteDef } from '../platform/index.js';
import { agentDefinitionSchema } from '../agent/index.js';
import { agentStatusAnswer, agentVersionList, agentVersionParams, publishBody } from './admin-schemas.js';
import { versionReadRoutes } from './version-read-routes.js';
import type { AgentRegistry } from './agent-registry.js';
import type { AppsService } from './apps-service.js';

const tags = ['operator'];

/** Who saved a version, as its record names them: the account's email (and token), or the admin token. */
export function savedByOf(principal: Principal): string {
  const author = auditAuthorOf(principal);
  if (author.kind === 'account') return author.email;
  if (author.kind === 'token') return `${author.email} (token ${author.tokenName})`;
  return author.kind;
}

export function agentVersionRoutes(apps: AppsService, agents: AgentRegistry): RouteDef[] {
  return [
    ...versionReadRoutes({
      path: 'agent',
      name: 'the agent',
      possessive: "the agent's",
      tags,
      schema: agentDefinitionSchema,
      listSchema: agentVersionList,
      list: (streamId) => agents.listVersions(streamId),
      version: (streamId, version) => agents.versions.get(streamId, version),
      requireApp: (streamId) => apps.requireApp(streamId),
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/apps/:streamId/agent/versions/:version/publish',
      summary: 'Publish a saved version: calls answer from it (an earlier version: the rollback)',
      tags,
      auth: { kind: 'admin', role: 'editor' },
      params: agentVersionParams,
      body: publishBody,
      audit: { state: ({ params }) => agents.status(params.streamId) },
      responses: {
        200: {
          description: 'published: calls answer from it now (it was the trained draft, or is already live)',
          schema: agentStatusAnswer,
        },
        202: {
          description:
            'it trains first (its model is not kept); the published version answers calls until it is live (GET …/agent/status)',
          schema: agentStatusAnswer,
        },
        404: { description: 'unknown app, or a version not kept' },
        429: { description: 'the training queue is full' },
      },
      handler: async ({ params, body, principal }) => {
        await apps.requireApp(params.streamId);
        const { status, trained } = await agents.publish(params.streamId, params.version);
        await agents.versions.markPublished(params.streamId, params.version, {
          at: isoNow(),
          by: savedByOf(principal),
          ...(body.note ? { note: body.note } : {}),
        });
        return {
          status: trained ? 200 : 202,
          json: status,
          ...(trained ? {} : { headers: { Location: `/api/admin/apps/${params.streamId}/agent/status` } }),
        };
      },
    }),
  ];
}
