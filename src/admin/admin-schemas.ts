/** Request and answer shapes of the operator API under /api/admin (apps, API apps, API keys). */
import { z } from 'zod';

export const streamIdParam = z.object({ streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>') });

export const createAppBody = z.strictObject({
  name: z.string().trim().min(1).max(120),
  language: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'a language code like en or en-US').default('en'),
  icon: z.url({ protocol: /^https?$/ }).max(2000).optional(),
});

export const appRecord = z.object({
  streamId: z.string(),
  name: z.string(),
  language: z.string(),
  icon: z.string().optional(),
  createdOn: z.string(),
});
export type AppRecord = z.infer<typeof appRecord>;

export const API_APP_SCOPES = ['chat-history', 'batch-tests', 'assist-import-export', 'tables'] as const;
export const API_KEY_SCOPES = ['connections:view', 'connections:manage'] as const;

export const createApiAppBody = z.strictObject({
  name: z.string().trim().min(1).max(120),
  scopes: z.array(z.enum(API_APP_SCOPES)).min(1).max(API_APP_SCOPES.length),
});

export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(120),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
});

/** An app's API app and the client id in its path. */
export const apiAppParams = streamIdParam.extend({ clientId: z.string().regex(/^cs-[0-9a-f-]{36}$/, 'must be a client id cs-<uuid>') });

/** An API app as listed: everything but its secret, which is shown only when it is made. */
export const apiAppRecord = z.object({
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdOn: z.string().describe('ISO 8601 time it was made'),
});
export type ApiAppListed = z.infer<typeof apiAppRecord>;

export const apiAppAnswer = z.object({ clientId: z.string(), clientSecret: z.string(), name: z.string(), scopes: z.array(z.string()), streamId: z.string() });
export const apiKeyAnswer = z.object({ id: z.string(), apiKey: z.string(), name: z.string(), scopes: z.array(z.string()) });
/** An API key as listed: never the key itself, which is shown only when it is made. */
export const apiKeyRecord = z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()), createdOn: z.string().describe('ISO 8601 time it was made') });
export const apiKeyParams = z.object({ id: z.string().regex(/^key-[0-9a-f-]{36}$/, 'must be an API key id key-<uuid>') });

/** Which version of an app's agent answers turns, and how the training of the latest upload stands. */
export const agentStatusAnswer = z.object({
  state: z.enum(['ready', 'training', 'failed']).describe('ready: the latest upload is live; training: turns use the live version meanwhile; failed: the live version stays'),
  liveVersion: z.string().nullable().describe('the version turns use (null before a first upload is trained)'),
  latestVersion: z.string().describe('the version of the latest accepted upload'),
  liveSince: z.string().optional(),
  trainingSince: z.string().optional(),
  error: z.string().optional(),
});
export type AgentStatus = z.infer<typeof agentStatusAnswer>;
