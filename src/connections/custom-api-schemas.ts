/**
 * Create-body schemas of the custom `API` provider, in its two variants, and the dispatcher that
 * picks one. Variant rule: a body that carries `mapProvider` or `IOMappings` (top level, or
 * `fields.mapProvider` / `fields.IOMapping`) is the existing-provider variant; any other body is the
 * default-provider variant (payload + promptVars). Carrying both kinds of members is refused.
 */
import { z } from 'zod';
import { IO_MAPPINGS, MAP_PROVIDERS } from './connection-record.js';
import type { EndpointGuard } from './endpoint-guard.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'keep-alive',
  'trailer',
]);
/** JSONPath without filters or scripts: `choices[0].message.content`, `$.usage.prompt_tokens`. */
const PLAIN_PATH = /^[^()?@`]+$/;

/** "Required" for a missing member instead of "expected string, received undefined". */
export const needed = {
  error: (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : undefined),
};

export const connectionName = z.string(needed).trim().min(1).max(200);
export const modelName = z.string(needed).trim().min(1).max(200);
export const secretValue = z.string(needed).trim().min(1).max(1000);

export const answerPath = z
  .string(needed)
  .trim()
  .min(1)
  .max(500)
  .regex(
    PLAIN_PATH,
    'must be a plain JSON path like choices[0].message.content (no filter or script expressions)',
  );

export const httpUrl = (guard: EndpointGuard) =>
  z
    .string(needed)
    .trim()
    .min(1)
    .max(2000)
    .superRefine((v, ctx) => {
      const problem = guard.problemWith(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const header = z.object({
  key: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(HEADER_NAME, 'must be a valid header name')
    .refine((k) => !RESERVED_HEADERS.has(k.toLowerCase()), 'is set by the gateway and cannot be given'),
  value: z
    .string()
    .max(8000)
    .regex(/^[^\r\n]*$/, 'must be one line'),
});

const promptVar = z.object({
  name: z.string().trim().min(1).max(100),
  displayName: z.string().max(200),
  status: z.boolean(),
  dataType: z.string().max(100),
  elementType: z.string().max(100),
  defaultValue: z.string().max(10_000),
  required: z.boolean(),
  examples: z.boolean().optional(),
});

const payload = z.looseObject(
  {
    model: z.string(needed).trim().min(1).max(200),
    max_tokens: z.number(needed).int().positive(),
    messages: z
      .array(
        z.looseObject({ role: z.string(needed).min(1).max(50), content: z.string(needed).max(100_000) }),
        needed,
      )
      .min(1)
      .max(100),
  },
  needed,
);

const llmFeatures = z.object({
  toolCalling: z.boolean().default(false),
  supportTools: z.boolean().default(false),
  parallelToolCalling: z.boolean().default(false),
  structuredResponse: z.boolean().default(false),
  dataGeneration: z.boolean().default(false),
  streaming: z.boolean().default(false),
});

/** `fields` of an API connection: all optional (the request shapes carry URL and key elsewhere). */
const apiFields = (guard: EndpointGuard) =>
  z.object({
    BASE_URL: httpUrl(guard).optional(),
    API_KEY: secretValue.optional(),
    MODEL_NAME: modelName.optional(),
    LLM_API_URL: httpUrl(guard).optional(),
    LLM_API_KEY: secretValue.optional(),
    IOMapping: z.enum(IO_MAPPINGS).optional(),
    mapProvider: z.enum(MAP_PROVIDERS).optional(),
  });

const common = (guard: EndpointGuard) => ({
  provider: z.literal('API'),
  connectionName,
  model: modelName.optional(),
  modelType: z.string().trim().max(100).optional(),
  fields: apiFields(guard).default({}),
  endpointUrl: httpUrl(guard),
  headers: z.array(header).max(50).default([]),
  status: z.literal('FINALIZED').default('FINALIZED'),
  isEnable: z.boolean().default(true),
});

export const apiDefaultBody = (guard: EndpointGuard) =>
  z.object({
    ...common(guard),
    promptVars: z.array(promptVar).max(100).default([]),
    customVars: z.array(z.unknown()).max(100).default([]),
    payload,
    outputPath: answerPath,
    inputTokensPath: answerPath.optional(),
    outputTokensPath: answerPath.optional(),
  });

export const apiExistingProviderBody = (guard: EndpointGuard) =>
  z.object({
    ...common(guard),
    idp: z.string().trim().max(100).default('none'),
    bodyTab: z.string().trim().max(100).default('providerReferences'),
    mapProvider: z.enum(MAP_PROVIDERS).optional(),
    llmFeatures: llmFeatures.optional(),
    IOMappings: z.array(z.enum(IO_MAPPINGS)).min(1).max(IO_MAPPINGS.length).optional(),
  });

export type ApiDefaultInput = z.output<ReturnType<typeof apiDefaultBody>> & { variant: 'default' };
export type ApiExistingProviderInput = z.output<ReturnType<typeof apiExistingProviderBody>> & {
  variant: 'existingProvider';
  mapProvider: (typeof MAP_PROVIDERS)[number];
  IOMappings: Array<(typeof IO_MAPPINGS)[number]>;
  model: string;
};
export type ApiCreateInput = ApiDefaultInput | ApiExistingProviderInput;

type Issue = { message: string; path: PropertyKey[] };
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export const isExistingProviderVariant = (raw: Record<string, unknown>): boolean => {
  const f = obj(raw.fields);
  return (
    raw.mapProvider !== undefined ||
    raw.IOMappings !== undefined ||
    f.mapProvider !== undefined ||
    f.IOMapping !== undefined
  );
};

/**
 * Validates an `API` create body in the variant it belongs to. Returns the parsed input or the
 * full list of problems (every member, each with its path), never stopping at the first.
 */
export function parseApiCreateBody(
  raw: Record<string, unknown>,
  guard: EndpointGuard,
): { ok: true; value: ApiCreateInput } | { ok: false; issues: Issue[] } {
  const existing = isExistingProviderVariant(raw);
  const r = (existing ? apiExistingProviderBody(guard) : apiDefaultBody(guard)).safeParse(raw);
  const issues: Issue[] = r.success ? [] : r.error.issues.map((i) => ({ message: i.message, path: i.path }));
  if (existing) {
    const f = obj(raw.fields);
    for (const member of ['payload', 'promptVars', 'outputPath'] as const) {
      if (raw[member] !== undefined)
        issues.push({
          message: 'belongs to the default-provider variant; cannot be combined with mapProvider/IOMappings',
          path: [member],
        });
    }
    if (raw.mapProvider === undefined && f.mapProvider === undefined)
      issues.push({
        message: 'Required (one of vendorAModel, vendorCModel, vendorDModel)',
        path: ['mapProvider'],
      });
    if (raw.IOMappings === undefined && f.IOMapping === undefined)
      issues.push({ message: 'Required (e.g. ["textToText"])', path: ['IOMappings'] });
    if (raw.model === undefined && f.MODEL_NAME === undefined)
      issues.push({ message: 'Required (the model name sent to the provider)', path: ['model'] });
  }
  if (issues.length > 0 || !r.success) return { ok: false, issues };
  if (!existing)
    return {
      ok: true,
      value: { ...(r.data as z.output<ReturnType<typeof apiDefaultBody>>), variant: 'default' },
    };
  const d = r.data as z.output<ReturnType<typeof apiExistingProviderBody>>;
  return {
    ok: true,
    value: {
      ...d,
      variant: 'existingProvider',
      mapProvider: (d.mapProvider ?? d.fields.mapProvider)!,
      IOMappings: d.IOMappings ?? [d.fields.IOMapping!],
      model: (d.model ?? d.fields.MODEL_NAME)!,
    },
  };
}
