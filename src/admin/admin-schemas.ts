/** Request and answer shapes of the operator API under /api/admin (apps, API apps, API keys). */
import { z } from 'zod';

export const streamIdParam = z.object({
  streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>'),
});

export const createAppBody = z.strictObject({
  name: z.string().trim().min(1).max(120),
  language: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'a language code like en or en-US')
    .default('en'),
  icon: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
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
export const apiAppParams = streamIdParam.extend({
  clientId: z.string().regex(/^cs-[0-9a-f-]{36}$/, 'must be a client id cs-<uuid>'),
});

/** An API app as listed: everything but its secret, which is shown only when it is made. */
export const apiAppRecord = z.object({
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdOn: z.string().describe('ISO 8601 time it was made'),
});
export type ApiAppListed = z.infer<typeof apiAppRecord>;

export const apiAppAnswer = z.object({
  clientId: z.string(),
  clientSecret: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  streamId: z.string(),
});
export const apiKeyAnswer = z.object({
  id: z.string(),
  apiKey: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
});
/** An API key as listed: never the key itself, which is shown only when it is made. */
export const apiKeyRecord = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdOn: z.string().describe('ISO 8601 time it was made'),
});
export const apiKeyParams = z.object({
  id: z.string().regex(/^key-[0-9a-f-]{36}$/, 'must be an API key id key-<uuid>'),
});

/** Which version of an app's agent answers turns, and how the training of the latest upload stands. */
export const agentStatusAnswer = z.object({
  state: z
    .enum(['ready', 'training', 'failed'])
    .describe(
      'ready: the latest upload is live; training: turns use the live version meanwhile; failed: the live version stays',
    ),
  liveVersion: z
    .string()
    .nullable()
    .describe('the version turns use (null before a first upload is trained)'),
  latestVersion: z.string().describe('the version of the latest accepted upload'),
  liveSince: z.string().optional(),
  draftVersion: z
    .string()
    .optional()
    .describe('the latest trained draft (saved, not published), which the sandbox may answer from'),
  trainingSince: z.string().optional(),
  error: z.string().optional(),
});
export type AgentStatus = z.infer<typeof agentStatusAnswer>;

/** When a version was last published, by whom and why. */
export const publishedRecord = z
  .object({ at: z.string().describe('ISO 8601 time'), by: z.string(), note: z.string().optional() })
  .describe('the last time it was published (or rolled back to)');

/** The body of a publish (or rollback): why, kept with the version. */
export const publishBody = z.strictObject({
  note: z
    .string()
    .trim()
    .max(500)
    .optional()
    .describe('why it is published (or rolled back to), kept with the version as lastPublished.note'),
});

/** A saved version of the agent in a path. */
export const agentVersionParams = streamIdParam.extend({
  version: z.string().regex(/^[0-9a-f]{16}$/, 'must be a version id (16 hex digits)'),
});

/** How a save of the agent is made: `publish=false` keeps it as a draft; `note` says what changed. */
export const agentSaveQuery = z.object({
  publish: z
    .enum(['true', 'false'])
    .default('true')
    .describe('false: save a draft (trained for the sandbox; calls keep the published version)'),
  note: z
    .string()
    .trim()
    .max(500)
    .optional()
    .describe('what this version changes, shown in the list of versions'),
});

export const agentVersionRecord = z.object({
  version: z.string(),
  savedAt: z.string().describe('ISO 8601 time it was saved'),
  savedBy: z.string().describe('the account (email) or credential that saved it'),
  note: z.string().optional(),
  published: z.boolean().describe('calls answer from it'),
  draft: z.boolean().describe('the latest trained draft (the sandbox may answer from it)'),
  lastPublished: publishedRecord.optional(),
});

export const agentVersionList = z.object({
  versions: z
    .array(agentVersionRecord)
    .describe(
      'newest first; the newest 50 are kept, and the published version and the draft whatever their age',
    ),
  published: z.string().nullable(),
  draft: z.string().nullable(),
});

export const versionDiffQuery = z.strictObject({
  from: z.string().regex(/^[0-9a-f]{16}$/, 'a version id'),
  to: z.string().regex(/^[0-9a-f]{16}$/, 'a version id'),
});

export const versionDiff = z.object({
  from: z.string(),
  to: z.string(),
  changes: z
    .array(
      z.object({
        path: z.string().describe('dotted path of the member (arrays by index)'),
        before: z.unknown().optional(),
        after: z.unknown().optional(),
      }),
    )
    .describe(
      'every member that differs: before absent where it was added, after absent where it was removed; secret values redacted',
    ),
  truncated: z.boolean().describe('true when more than 200 members differ (the first 200 are listed)'),
});
