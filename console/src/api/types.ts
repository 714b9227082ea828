/**
 * Shapes of the answers the console reads: aliases of the types generated from the service's
 * OpenAPI document (openapi.d.ts, `npm run api:types`), so a schema change on the server that the
 * console does not follow fails `npm run check`. Only the filters the pages keep (in their URLs) are
 * the console's own.
 */
import type { paths } from './openapi.js';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The JSON body that route `P` answers to method `M` with status `S`, as the service declares it. */
export type Answer<P extends keyof paths, M extends Method, S extends number = 200> =
  paths[P] extends Record<M, { responses: infer R }>
    ? R extends Record<S, { content: { 'application/json': infer B } }>
      ? B
      : never
    : never;

/** The JSON body that route `P` takes for method `M`. */
export type Body<P extends keyof paths, M extends Method> =
  paths[P] extends Record<M, { requestBody?: { content: { 'application/json': infer B } } }> ? B : never;

/** The query parameters that route `P` takes for method `M`. */
export type Query<P extends keyof paths, M extends Method> =
  paths[P] extends Record<M, { parameters: { query?: infer Q } }> ? NonNullable<Q> : never;

type Item<A> = A extends ReadonlyArray<infer T> ? T : never;

export type AppRecord = Answer<'/api/admin/apps/{streamId}', 'get'>;

/** An API key as the operator API lists it (never the key itself). */
export type ApiKeyListed = Item<Answer<'/api/admin/api-keys', 'get'>['apiKeys']>;

/** An API app of an app as the operator API lists it (never its secret). */
export type ApiAppListed = Item<Answer<'/api/admin/apps/{streamId}/api-apps', 'get'>['apiApps']>;

export type ChannelState = Answer<'/api/admin/apps/{streamId}/channels/ivr', 'get'>;

/** The answer of switching the channel: `clientSecret` only when the call created the channel. */
export type ChannelAnswer = Answer<'/api/admin/apps/{streamId}/channels/ivr', 'put'>;

/** A webhook token the service minted, when it expires, and the webhook URL carrying it. */
export type MintedToken = Answer<'/api/admin/apps/{streamId}/channels/ivr/tokens', 'post', 201>;

export type SandboxStatus = Answer<'/api/admin/apps/{streamId}/ivr-sandbox/status', 'get'>;

export type SandboxLockouts = Answer<'/api/admin/apps/{streamId}/ivr-sandbox/lockouts', 'get'>;

/** One lockout at the sandbox number: the number itself, a client address, or one caller (address and from). */
export type SandboxLockout = Item<SandboxLockouts['lockouts']>;

/** Which subset of lockouts to end (none given: all of them). */
export type LockoutFilter = Query<'/api/admin/apps/{streamId}/ivr-sandbox/lockouts', 'delete'>;

/** The answer of switching the sandbox: `pin` and `secret` only when the call created (or rotated) them. */
export type SandboxAnswer = Answer<'/api/admin/apps/{streamId}/ivr-sandbox', 'put'>;

export type SuiteUtterance = Item<Body<'/api/admin/apps/{streamId}/testsuites/{name}', 'put'>['utterances']>;

export type SuiteSummary = Answer<'/api/admin/apps/{streamId}/testsuites/{name}', 'put'>;

export type RunAccepted = Answer<'/api/public/bot/{botId}/testsuite/{testSuiteName}/run', 'post', 202>;

export type RunStatus = Answer<
  '/api/public/stream/{streamId}/testsuite/{testSuiteName}/{testRunId}/status',
  'get'
>;

/** The run's counters: the platform's, and (newer runs) None as a class. */
export type RunCounters = NonNullable<RunStatus['result']['results']>;

export type CalibrationBin = Item<NonNullable<RunStatus['result']['calibration']>['bins']>;

/** The history page's filters (its URL), sent in the getMessages body. */
export interface HistoryFilters {
  userId?: string;
  sessionId?: string;
  channelType?: string;
  dateFrom?: string;
  dateTo?: string;
  forward?: boolean;
}

export type HistoryAnswer = Answer<'/api/public/bot/{botId}/getMessages', 'post'>;

export type HistoryMessage = Item<HistoryAnswer['messages']>;

export type AsrMeta = NonNullable<HistoryMessage['asrMetaData']>;

export type ConnectionSummary = Item<Answer<'/api/public/connections', 'get'>['connections']>;

export type ConnectionDetail = Answer<'/api/public/connections/{connectionId}', 'get'>;

export type TableDefinition = Answer<'/api/admin/tables/{tableName}', 'get'>;

export type TableColumn = Item<TableDefinition['columns']>;

export type SkillGroupReadBack = Answer<'/api/admin/apps/{streamId}/skill-groups', 'get'>;

/** The channelType values of conversation history (the platform's 25), IVR first. */
export const CHANNELS = [
  'ivr',
  'ivrVoice',
  'rtm',
  'msteams',
  'twitter',
  'spark',
  'facebook',
  'slack',
  'native',
  'email',
  'sms',
  'wfacebook',
  'ringcentral',
  'jabber',
  'yammer',
  'alexa',
  'twiliovoice',
  'telegram',
  'assist',
  'line',
  'liveperson',
  'googleactions',
  'hangoutchat',
  'mattermost',
  'rcs',
] as const;

/** Which version of the agent answers turns, and how the training of the latest upload stands. */
export type AgentStatus = Answer<'/api/admin/apps/{streamId}/agent/status', 'get'>;
