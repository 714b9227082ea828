/**
 * The read side of a versioned document's routes, the same for the agent and the IVR settings: the
 * list of saved versions, a diff between two, and one version as saved. Publishing differs per
 * document (an agent may train first) and stays with each.
 */
import type { z } from 'zod';
import { AppError, auditDiff, defineRoute, type RouteDef } from '../platform/index.js';
import { agentVersionParams, streamIdParam, versionDiff, versionDiffQuery } from './admin-schemas.js';

export interface VersionedDocument {
  /** The document's path under the app: `agent`, `ivr-settings`. */
  path: string;
  /** How summaries and errors name it: "the agent", "the IVR settings", and its possessive. */
  name: string;
  possessive: string;
  tags: string[];
  /** The document's schema, for one version as saved. */
  schema: z.ZodType;
  /** The list's answer and its schema. */
  listSchema: z.ZodType;
  list: (streamId: string) => Promise<unknown>;
  /** One saved version's JSON, or undefined when it was never saved or is past the retention. */
  version: (streamId: string, version: string) => Promise<{ json: string } | null | undefined>;
  requireApp: (streamId: string) => Promise<unknown>;
}

export function versionReadRoutes(doc: VersionedDocument): RouteDef[] {
  const base = `/api/admin/apps/:streamId/${doc.path}/versions`;
  const auth = { kind: 'admin', role: 'viewer' } as const;
  const requireVersion = async (streamId: string, version: string) => {
    const found = await doc.version(streamId, version);
    if (!found)
      throw AppError.notFound(
        `No saved version ${version} of ${doc.name} (it was never saved, or is past the retention)`,
      );
    return found;
  };
  return [
    defineRoute({
      method: 'get',
      path: base,
      summary: `List ${doc.possessive} saved versions, newest first`,
      tags: doc.tags,
      auth,
      params: streamIdParam,
      responses: {
        200: {
          description: 'the kept versions and which one is published and which the draft',
          schema: doc.listSchema,
        },
        404: { description: 'unknown app' },
      },
      handler: async ({ params }) => {
        await doc.requireApp(params.streamId);
        return { json: await doc.list(params.streamId) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/diff`,
      summary: `What changed between two saved versions of ${doc.name}`,
      tags: doc.tags,
      auth,
      params: streamIdParam,
      query: versionDiffQuery,
      responses: {
        200: { description: 'the members that differ, from `from` to `to`', schema: versionDiff },
        400: { description: 'from or to is not a version id' },
        404: { description: 'unknown app, or a version not kept' },
      },
      handler: async ({ params, query }) => {
        await doc.requireApp(params.streamId);
        const [from, to] = await Promise.all([
          requireVersion(params.streamId, query.from),
          requireVersion(params.streamId, query.to),
        ]);
        const { changes, truncated } = auditDiff(JSON.parse(from.json), JSON.parse(to.json));
        return { json: { from: query.from, to: query.to, changes, truncated } };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:version`,
      summary: `Read a saved version of ${doc.name}`,
      tags: doc.tags,
      auth,
      params: agentVersionParams,
      responses: {
        200: { description: `${doc.name} as saved`, schema: doc.schema },
        404: { description: 'unknown app, or a version not kept' },
      },
      handler: async ({ params }) => {
        await doc.requireApp(params.streamId);
        return { json: JSON.parse((await requireVersion(params.streamId, params.version)).json) };
      },
    }),
  ];
}
