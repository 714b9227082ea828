/**
 * Request and answer shapes of the model connections API. The create body is discriminated by
 * `provider`; the `API` branch is then validated in its variant (custom-api-schemas.ts), so one 400
 * names every missing or wrong member with its path.
 */
import { z } from 'zod';
import { CONNECTION_STATUSES, PROVIDERS, type HostedProvider, type Provider } from './connection-record.js';
import {
  connectionName,
  modelName,
  needed,
  parseApiCreateBody,
  secretValue,
  type ApiCreateInput,
} from './custom-api-schemas.js';
import type { EndpointGuard } from './endpoint-guard.js';

/** `2024-02-01`, `2024-05-01-preview`. */
const API_VERSION = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(-[A-Za-z0-9.]+)?$/;
/** Becomes part of a host name: a DNS label only. */
const RESOURCE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const DEPLOYMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const easyIntegration = z.literal('EASY_INTEGRATION', {
  error: (iss) => (iss.input === undefined ? 'Required (EASY_INTEGRATION)' : 'must be EASY_INTEGRATION'),
});

export const hostedFields = {
  HostedModelA: z.object({ API_KEY: secretValue }, needed),
  HostedModelB: z.object(
    {
      API_KEY: secretValue,
      api_version: z
        .string(needed)
        .trim()
        .regex(API_VERSION, 'must be a date like 2024-02-01, optionally with a suffix like -preview'),
      your_resource_name: z
        .string(needed)
        .trim()
        .regex(RESOURCE_NAME, 'must be a resource name (letters, digits and hyphens)'),
      deployment_id: z
        .string(needed)
        .trim()
        .regex(DEPLOYMENT_ID, 'must be a deployment id (letters, digits, . _ -)'),
    },
    needed,
  ),
  HostedModelC: z.object({ API_KEY: secretValue }, needed),
} satisfies Record<HostedProvider, z.ZodObject>;

const hostedA = z.object({
  provider: z.literal('HostedModelA'),
  connectionName,
  model: modelName,
  modelType: z.string().trim().max(100).optional(),
  fields: hostedFields.HostedModelA,
});
const hostedB = z.object({
  provider: z.literal('HostedModelB'),
  connectionName,
  model: modelName,
  modelType: easyIntegration,
  fields: hostedFields.HostedModelB,
});
const hostedC = z.object({
  provider: z.literal('HostedModelC'),
  connectionName,
  model: modelName,
  modelType: easyIntegration,
  fields: hostedFields.HostedModelC,
});
const apiEnvelope = z.looseObject({ provider: z.literal('API') });

export type HostedCreateInput =
  z.output<typeof hostedA> | z.output<typeof hostedB> | z.output<typeof hostedC>;
export type CreateConnectionInput = HostedCreateInput | ({ provider: 'API' } & ApiCreateInput);

/** The create body; built per guard because endpoint URLs are checked against the private-address rule. */
export function createConnectionBody(guard: EndpointGuard) {
  return z
    .discriminatedUnion('provider', [hostedA, hostedB, hostedC, apiEnvelope], {
      error: (iss) =>
        iss.code === 'invalid_union' ? `provider must be one of ${PROVIDERS.join(', ')}` : undefined,
    })
    .transform((body, ctx): CreateConnectionInput => {
      if (body.provider !== 'API') return body;
      const r = parseApiCreateBody(body, guard);
      if (r.ok) return r.value;
      for (const i of r.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path });
      return z.NEVER;
    });
}

/** PATCH body: `fields` is checked against the connection's provider in the service. */
export const patchConnectionBody = z.object({
  fields: z
    .record(z.string(), z.unknown())
    .refine((f) => Object.keys(f).length > 0, 'must carry at least one member, e.g. API_KEY'),
});

/** Per-provider check of a PATCH's `fields`: any subset of the provider's members, at least one. */
export function patchFieldsSchema(provider: HostedProvider) {
  return hostedFields[provider]
    .partial()
    .refine(
      (f) => Object.values(f).some((v) => v !== undefined),
      'must carry at least one member of this provider, e.g. API_KEY',
    );
}

export const connectionIdParam = z.object({ connectionId: z.string().min(1).max(200) });

export const listConnectionsQuery = z.object({
  provider: z.enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(', ')}` }).optional(),
  status: z
    .enum(CONNECTION_STATUSES, { error: `must be one of ${CONNECTION_STATUSES.join(', ')}` })
    .optional(),
  limit: z.coerce.number({ error: 'must be an integer from 1 to 1000' }).int().min(1).max(1000).optional(),
});

const answerBase = {
  connectionId: z.string(),
  connectionName: z.string(),
  provider: z.enum(PROVIDERS),
  model: z.string(),
  status: z.enum(CONNECTION_STATUSES),
};
const maskedFields = z.record(z.string(), z.string());

export const listItemAnswer = z.object({ ...answerBase, createdOn: z.string(), modifiedOn: z.string() });
export const listAnswer = z.object({ connections: z.array(listItemAnswer), total: z.number() });
export const getAnswer = z.looseObject({
  ...answerBase,
  fields: maskedFields,
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export const createAnswer = z.looseObject({ ...answerBase, fields: maskedFields, createdOn: z.string() });
export const updateAnswer = z.looseObject({ ...answerBase, fields: maskedFields, modifiedOn: z.string() });

export type ListConnectionsQuery = z.output<typeof listConnectionsQuery>;
export type { Provider };
