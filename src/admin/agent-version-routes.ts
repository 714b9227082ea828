/**
 * Operator routes of the agent's versions: the list, one version's definition, a diff between two,
 * and publishing one (an earlier one is the rollback). Saving a draft is `PUT …/agent?publish=false`
 * (admin-routes.ts). Reads need the viewer role, publishing the editor role.
 */
import { AppError, auditAuthorOf, auditDiff, defineRoute, isoNow, type Principal, type RouteDef } from '../platform/index.js';
import { agentDefinitionSchema } from '../agent/index.js';
import { agentStatusAnswer, agentVersionList, agentVersionParams, publishBody, streamIdParam, versionDiff, versionDiffQuery } from './admin-schemas.js';
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
  const requireVersion = async (streamId: string, version: string) => {
    const found = await agents.versions.get(streamId, version);
    if (!found) throw AppError.notFound(`The agent has no saved version ${version} (it was never saved, or is past the retention)`);
    return found;
  };
  return [
    defineRoute({
      method: 'get', path: '/api/admin/apps/:streamId/agent/versions', summary: "List the agent's saved versions, newest first", tags, auth: { kind: 'admin', role: 'viewer' }, params: streamIdParam,
      responses: { 200: { description: 'the kept versions and which one is published and which the draft', schema: agentVersionList }, 404: { description: 'unknown app' } },
      handler: async ({ params }) => {
        await apps.requireApp(params.streamId);
        return { json: await agents.listVersions(params.streamId) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/admin/apps/:streamId/agent/versions/diff', summary: 'What changed between two saved versions of the agent', tags, auth: { kind: 'admin', role: 'viewer' },
      params: streamIdParam, query: versionDiffQuery,
      responses: { 200: { description: 'the members that differ, from `from` to `to`', schema: versionDiff }, 400: { description: 'from or to is not a version id' }, 404: { description: 'unknown app, or a version not kept' } },
      handler: async ({ params, query }) => {
        await apps.requireApp(params.streamId);
        const [from, to] = await Promise.all([requireVersion(params.streamId, query.from), requireVersion(params.streamId, query.to)]);
        const { changes, truncated } = auditDiff(JSON.parse(from.json), JSON.parse(to.json));
        return { json: { from: query.from, to: query.to, changes, truncated } };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/admin/apps/:streamId/agent/versions/:version', summary: 'Read a saved version of the agent definition', tags, auth: { kind: 'admin', role: 'viewer' },
      params: agentVersionParams,
      responses: { 200: { description: 'the definition as saved', schema: agentDefinitionSchema }, 404: { description: 'unknown app, or a version not kept' } },
      handler: async ({ params }) => {
        await apps.requireApp(params.streamId);
        return { json: JSON.parse((await requireVersion(params.streamId, params.version)).json) };
      },
    }),
    defineRoute({
      method: 'post', path: '/api/admin/apps/:streamId/agent/versions/:version/publish', summary: 'Publish a saved version: calls answer from it (an earlier version: the rollback)', tags,
      auth: { kind: 'admin', role: 'editor' }, params: agentVersionParams, body: publishBody,
      audit: { state: ({ params }) => agents.status(params.streamId) },
      responses: {
        200: { description: 'published: calls answer from it now (it was the trained draft, or is already live)', schema: agentStatusAnswer },
        202: { description: 'it trains first (its model is not kept); the published version answers calls until it is live (GET …/agent/status)', schema: agentStatusAnswer },
        404: { description: 'unknown app, or a version not kept' },
        429: { description: 'the training queue is full' },
      },
      handler: async ({ params, body, principal }) => {
        await apps.requireApp(params.streamId);
        const { status, trained } = await agents.publish(params.streamId, params.version);
        await agents.versions.markPublished(params.streamId, params.version, { at: isoNow(), by: savedByOf(principal), ...(body.note ? { note: body.note } : {}) });
        return { status: trained ? 200 : 202, json: status, ...(trained ? {} : { headers: { Location: `/api/admin/apps/${params.streamId}/agent/status` } }) };
      },
    }),
  ];
}
