/** OpenAPI 3.1 document generated from the route definitions' zod schemas (zod's JSON Schema). */
import { z, type ZodType } from 'zod';
import { MEDIA, type RouteDef } from './route-def.js';
import { neededRole } from '../auth-roles.js';

const toSchema = (schema: ZodType): Record<string, unknown> => {
  try {
    return z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' });
  } catch {
    return {};
  }
};

const securityOf = (def: RouteDef): Array<Record<string, string[]>> => {
  switch (def.auth.kind) {
    case 'admin':
      return [{ adminBearer: [] }];
    case 'jwt':
      return [{ authJwt: [def.auth.scope] }];
    case 'apiKey':
      return [{ apiKey: [def.auth.scope] }];
    default:
      return [];
  }
};

function parameters(def: RouteDef): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const js = toSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(js.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        schema: s,
      });
    }
  }
  return out;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** Every authenticated operation's refusal: the header names the credential expected, the entry's path its place. */
const UNAUTHORIZED = {
  description:
    'missing or bad credentials: WWW-Authenticate names the credential expected, and the error entry its place as path (e.g. headers.auth)',
  headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
  content: { 'application/json': { schema: ERROR_REF } },
};

/** A response's description and body; an error without its own schema has the contract's error body. */
function responseOf(status: number, r: RouteDef['responses'][number]): Record<string, unknown> {
  const type = r.contentType ?? 'application/json';
  if (r.schema) return { description: r.description, content: { [type]: { schema: toSchema(r.schema) } } };
  if (status >= 400)
    return { description: r.description, content: { 'application/json': { schema: ERROR_REF } } };
  if (r.contentType)
    return { description: r.description, content: { [type]: { schema: { type: 'string' } } } };
  return { description: r.description };
}

export function buildOpenApi(
  routes: RouteDef[],
  info: { title: string; version: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const path = def.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const methods = Array.isArray(def.method) ? def.method : [def.method];
    for (const method of methods) {
      const op: Record<string, unknown> = {
        summary: def.summary,
        tags: def.tags,
        security: securityOf(def),
        parameters: parameters(def),
        responses: Object.fromEntries(
          Object.entries(def.responses).map(([status, r]) => [status, responseOf(Number(status), r)]),
        ),
      };
      if (def.auth.kind === 'admin') {
        // the role an account needs (the admin token holds every role)
        const role = def.auth.role === 'self' ? 'any' : neededRole(def.auth.role, method);
        op['x-required-role'] = role;
        op.description =
          role === 'any'
            ? "Role: any operator (the caller's own account)."
            : `Role: ${role} (on the app in the path, or the whole service), or the admin token.`;
        const responses = op.responses as Record<string, unknown>;
        responses['403'] ??= {
          description: `the account lacks the ${role} role (code role_required, naming it)`,
          content: { 'application/json': { schema: ERROR_REF } },
        };
      }
      if (def.auth.kind !== 'none') {
        const own = def.responses[401];
        (op.responses as Record<string, unknown>)['401'] = own
          ? { ...responseOf(401, own), headers: UNAUTHORIZED.headers }
          : UNAUTHORIZED;
      }
      const body = def.documentedBody ?? def.body;
      if (body && method !== 'get') {
        const types = def.bodyTypes ?? ['json'];
        op.requestBody = {
          content: Object.fromEntries(
            types.map((t): [string, { schema: Record<string, unknown> }] => [
              MEDIA[t],
              { schema: toSchema(body) },
            ]),
          ),
        };
      }
      (paths[path] ??= {})[method] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      securitySchemes: {
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            "ADMIN_TOKEN, or an operator account's personal API token (pat_…); the console sends its session cookie instead",
        },
        authJwt: {
          type: 'apiKey',
          in: 'header',
          name: 'auth',
          description: 'HS256 JWT with claim appId = the API app clientId',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  msg: { type: 'string' },
                  code: { type: ['string', 'number'] },
                  path: { type: 'string' },
                },
                required: ['msg', 'code'],
              },
            },
          },
        },
      },
    },
  };
}
