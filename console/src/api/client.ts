/**
 * Every call the console makes, in one place: the operator API (with the session cookie) and the
 * public APIs (with the credentials of public-credentials.ts), exactly as other clients call them.
 * When an endpoint changes, this is the file to adapt.
 */
import { request } from './http.js';
import { forgetCredentials, withAppToken, withConnectionsKey } from './public-credentials.js';
import type {
  AgentStatus,
  ApiAppListed,
  ApiKeyListed,
  AppRecord,
  ChannelAnswer,
  ChannelState,
  ConnectionDetail,
  ConnectionSummary,
  HistoryAnswer,
  HistoryFilters,
  LockoutFilter,
  MintedToken,
  RunAccepted,
  RunStatus,
  SandboxAnswer,
  SandboxLockouts,
  SandboxLockout,
  SandboxStatus,
  SkillGroupReadBack,
  SuiteSummary,
  SuiteUtterance,
  TableDefinition,
} from './types.js';
import type { CallFilters, CallList, CallTimeline } from './inspector-types.js';
import type { Answer } from './types.js';

type Item<A> = A extends ReadonlyArray<infer T> ? T : never;

export * from './types.js';
export * from './inspector-types.js';
export { ApiError, onSignedOut } from './http.js';

const app = (streamId: string): string => `/api/admin/apps/${encodeURIComponent(streamId)}`;
const enc = encodeURIComponent;

// ---- sign-in ----
/** Who holds the session: the admin token (every role) or an account with its role grants. */
export type SessionAnswer = Answer<'/api/console/session', 'get'>;
export type SessionHolder = NonNullable<SessionAnswer['holder']>;
export type RoleGrant = Item<SessionHolder['grants']>;
export const signIn = (credentials: { token: string } | { email: string; password: string }) =>
  request<SessionAnswer>('POST', '/api/console/session', { body: credentials });
export const currentSession = () => request<SessionAnswer>('GET', '/api/console/session');
export async function signOut(): Promise<void> {
  try {
    await request<void>('DELETE', '/api/console/session');
  } finally {
    forgetCredentials();
  }
}

// ---- apps ----
export const listApps = () => request<{ apps: AppRecord[]; total: number }>('GET', '/api/admin/apps');
export const createApp = (input: { name: string; language: string }) =>
  request<AppRecord>('POST', '/api/admin/apps', { body: input });
export const getApp = (streamId: string) => request<AppRecord>('GET', app(streamId));
export const deleteApp = (streamId: string) => request<void>('DELETE', app(streamId));

// ---- API apps (JWT clients of the public APIs) ----
export const listApiApps = (streamId: string) =>
  request<{ apiApps: ApiAppListed[]; total: number }>('GET', `${app(streamId)}/api-apps`);
export async function deleteApiApp(streamId: string, clientId: string): Promise<void> {
  await request<void>('DELETE', `${app(streamId)}/api-apps/${enc(clientId)}`);
  // when it was the console's own, the next call gets a token of a new one
  forgetCredentials(streamId);
}

// ---- IVR channel ----
export const getChannel = (streamId: string) => request<ChannelState>('GET', `${app(streamId)}/channels/ivr`);
/** The client secret is in the answer only when this call created the channel. */
export const setChannel = (streamId: string, enabled: boolean) =>
  request<ChannelAnswer>('PUT', `${app(streamId)}/channels/ivr`, { body: { enabled } });
/** A new client secret, shown in this answer only; tokens signed with the old one are refused from now on. */
export const rotateChannelSecret = (streamId: string) =>
  request<Required<ChannelAnswer>>('POST', `${app(streamId)}/channels/ivr/rotate-secret`);
/** A webhook token signed with the channel's secret, with an expiry, and the webhook URL carrying it. */
export const mintWebhookToken = (streamId: string, input: { sub?: string; expiresInS: number }) =>
  request<MintedToken>('POST', `${app(streamId)}/channels/ivr/tokens`, { body: input });

// ---- agent ----
export const getAgent = (streamId: string) => request<unknown>('GET', `${app(streamId)}/agent`);
/** Accepted at once (202) with the status: the model trains in the background while the live version answers turns. */
export const putAgent = (
  streamId: string,
  definition: unknown,
  save: { publish?: boolean; note?: string } = {},
) => {
  const q = new URLSearchParams();
  if (save.publish === false) q.set('publish', 'false');
  if (save.note) q.set('note', save.note);
  const query = q.toString();
  return request<AgentStatus>('PUT', `${app(streamId)}/agent${query ? `?${query}` : ''}`, {
    body: definition,
  });
};
/** 404 when no agent is set for the app. */
export const agentStatus = (streamId: string) => request<AgentStatus>('GET', `${app(streamId)}/agent/status`);

// ---- IVR settings ----
export const getSettings = (streamId: string) =>
  request<Record<string, unknown>>('GET', `${app(streamId)}/ivr-settings`);
export const putSettings = (streamId: string, settings: unknown) =>
  request<Record<string, unknown>>('PUT', `${app(streamId)}/ivr-settings`, { body: settings });
/** A VoiceXML browser profile (the IVR setting dialect): the builtins and transcription its browsers have. */
export type DialectProfile = Item<Answer<'/api/admin/ivr/dialects', 'get'>['dialects']>;
export const listDialects = () => request<{ dialects: DialectProfile[] }>('GET', '/api/admin/ivr/dialects');
/** Checks a document against the W3C VoiceXML 2.1 schema (the service's libxml2). */
export const validateVxml = (xml: string) =>
  request<{ valid: boolean; errors: string[] }>('POST', '/api/admin/vxml/validate', { body: { xml } });
/** The JSON Schema the service validates IVR settings with, as /openapi.json publishes it. */
export async function settingsSchema(): Promise<Record<string, unknown>> {
  const doc = await request<{
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>
    >;
  }>('GET', '/openapi.json');
  const schema =
    doc.paths['/api/admin/apps/{streamId}/ivr-settings']?.put?.requestBody?.content['application/json']
      ?.schema;
  if (!schema) throw new Error('The service does not publish the IVR settings schema');
  return schema;
}

// ---- sandbox ----
export const sandboxStatus = (streamId: string) =>
  request<SandboxStatus>('GET', `${app(streamId)}/ivr-sandbox/status`);
/** The PIN and secret are in the answer only when this call created the sandbox. */
export const setSandbox = (streamId: string, input: { enabled: boolean; maxConcurrentCalls?: number }) =>
  request<SandboxAnswer>('PUT', `${app(streamId)}/ivr-sandbox`, { body: input });
/** A new PIN and secret, shown in this answer only; the old ones no longer log in. */
export const rotateSandboxSecret = (streamId: string) =>
  request<Required<SandboxAnswer>>('POST', `${app(streamId)}/ivr-sandbox/rotate-secret`);
/** Who is slowed or locked out at the sandbox number now, and until when. */
export const sandboxLockouts = (streamId: string) =>
  request<SandboxLockouts>('GET', `${app(streamId)}/ivr-sandbox/lockouts`);
/** Ends the lockouts the filter names (an empty filter: all); answers those it ended. */
export function clearSandboxLockouts(
  streamId: string,
  filter: LockoutFilter = {},
): Promise<{ phoneNumber: string; cleared: SandboxLockout[] }> {
  const q = new URLSearchParams(
    Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  ).toString();
  return request('DELETE', `${app(streamId)}/ivr-sandbox/lockouts${q ? `?${q}` : ''}`);
}

// ---- batch tests ----
export const putSuite = (streamId: string, name: string, utterances: SuiteUtterance[]) =>
  request<SuiteSummary>('PUT', `${app(streamId)}/testsuites/${enc(name)}`, { body: { utterances } });
export const getSuite = (streamId: string, name: string) =>
  request<SuiteSummary & { utterances: SuiteUtterance[] }>('GET', `${app(streamId)}/testsuites/${enc(name)}`);
export async function runSuite(streamId: string, name: string): Promise<RunAccepted> {
  return withAppToken(streamId, (auth) =>
    request<RunAccepted>('POST', `/api/public/bot/${enc(streamId)}/testsuite/${enc(name)}/run`, {
      body: { runType: 'inDevelopment' },
      headers: { auth },
    }),
  );
}
export async function runStatus(streamId: string, name: string, runId: string): Promise<RunStatus> {
  return withAppToken(streamId, (auth) =>
    request<RunStatus>(
      'GET',
      `/api/public/stream/${enc(streamId)}/testsuite/${enc(name)}/${enc(runId)}/status`,
      { headers: { auth } },
    ),
  );
}
/** The result file behind a run's signed, expiring link (same origin, no credential). */
export const resultCsv = (fileUrl: string) =>
  request<string>(
    'GET',
    new URL(fileUrl, location.origin).pathname + new URL(fileUrl, location.origin).search,
    { text: true },
  );

// ---- conversation history ----
export async function getMessages(streamId: string, filters: HistoryFilters): Promise<HistoryAnswer> {
  const body: Record<string, unknown> = { limit: 100, includeAsrMetaData: true };
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') body[k] = v;
  return withAppToken(streamId, (auth) =>
    request<HistoryAnswer>('POST', `/api/public/bot/${enc(streamId)}/getMessages`, {
      body,
      headers: { auth },
    }),
  );
}

// ---- call inspector ----
export function listCalls(
  streamId: string,
  filters: CallFilters,
  cursor?: string,
  limit = 20,
): Promise<CallList> {
  const q = new URLSearchParams({ limit: String(limit) });
  for (const [k, v] of Object.entries(filters)) if (typeof v === 'string' && v !== '') q.set(k, v);
  if (cursor) q.set('cursor', cursor);
  return request('GET', `${app(streamId)}/calls?${q}`);
}
export const getCall = (streamId: string, callId: string) =>
  request<CallTimeline>('GET', `${app(streamId)}/calls/${enc(callId)}`);
/** The live feed's URL (Server-Sent Events; the session cookie authorises it like any operator call). */
export const callFeedUrl = (streamId: string, callId?: string): string =>
  `${app(streamId)}/calls/feed${callId ? `?${new URLSearchParams({ callId })}` : ''}`;

// ---- model connections ----
export function listConnections(): Promise<{ connections: ConnectionSummary[]; total: number }> {
  return withConnectionsKey((key) =>
    request('GET', '/api/public/connections?limit=1000', { headers: { 'x-api-key': key } }),
  );
}
export function getConnection(id: string): Promise<ConnectionDetail> {
  return withConnectionsKey((key) =>
    request('GET', `/api/public/connections/${enc(id)}`, { headers: { 'x-api-key': key } }),
  );
}
export function createConnection(body: unknown): Promise<ConnectionDetail> {
  return withConnectionsKey((key) =>
    request('POST', '/api/public/connections', { body, headers: { 'x-api-key': key } }),
  );
}

// ---- API keys (of the model connections API) ----
export const listApiKeys = () =>
  request<{ apiKeys: ApiKeyListed[]; total: number }>('GET', '/api/admin/api-keys');
export const deleteApiKey = (id: string) => request<void>('DELETE', `/api/admin/api-keys/${enc(id)}`);

// ---- data tables (the API reads and defines one table by name; it has no list) ----
export const getTable = (name: string) => request<TableDefinition>('GET', `/api/admin/tables/${enc(name)}`);
export const defineTable = (
  name: string,
  body: { columns: unknown[]; access?: Record<string, { read: boolean; write: boolean }> },
) => request<TableDefinition>('PUT', `/api/admin/tables/${enc(name)}`, { body });

// ---- skill groups ----
export const readSkillGroups = (streamId: string, accountId: string, orgId: string) =>
  request<SkillGroupReadBack>(
    'GET',
    `${app(streamId)}/skill-groups?${new URLSearchParams({ accountId, orgId })}`,
  );
export async function importSkillGroups(
  streamId: string,
  accountId: string,
  orgId: string,
  groups: unknown[],
): Promise<{ msg: string }> {
  const q = new URLSearchParams({ accountId, orgId, type: 'skillGroups' });
  return withAppToken(streamId, (auth) =>
    request('POST', `/assist/api/v1/public/analytics/${enc(streamId)}/storeAssistFunctionalities?${q}`, {
      body: { data: groups, metaData: { userId: 'operator-console', orgId, type: 'skillGroups', accountId } },
      headers: { auth, accountId },
    }),
  );
}

// ---- operator accounts (owners), the caller's own account, the audit trail ----
export type AccountRecord = Answer<'/api/admin/accounts/{accountId}', 'get'>;
export type Invitation = Answer<'/api/admin/accounts', 'post', 201>;
export type PersonalToken = Item<Answer<'/api/account/tokens', 'get'>['tokens']>;
export const listAccounts = () => request<{ accounts: AccountRecord[] }>('GET', '/api/admin/accounts');
export const inviteAccount = (input: { email: string; grants: RoleGrant[] }) =>
  request<Invitation>('POST', '/api/admin/accounts', { body: input });
export const updateAccount = (id: string, change: { grants?: RoleGrant[]; disabled?: boolean }) =>
  request<AccountRecord>('PATCH', `/api/admin/accounts/${enc(id)}`, { body: change });
export const reinviteAccount = (id: string) =>
  request<Invitation>('POST', `/api/admin/accounts/${enc(id)}/invitation`);
export const acceptInvitation = (token: string, password: string) =>
  request<AccountRecord>('POST', '/api/accounts/invitation', { body: { token, password } });
export const changePassword = (currentPassword: string, newPassword: string) =>
  request<void>('PUT', '/api/account/password', { body: { currentPassword, newPassword } });
export const listMyTokens = () => request<{ tokens: PersonalToken[] }>('GET', '/api/account/tokens');
export const createMyToken = (name: string) =>
  request<PersonalToken & { token: string }>('POST', '/api/account/tokens', { body: { name } });
export const revokeMyToken = (id: string) => request<void>('DELETE', `/api/account/tokens/${enc(id)}`);

export type AuditEntry = Item<Answer<'/api/admin/audit', 'get'>['entries']>;
export interface AuditFilters {
  app?: string;
  author?: string;
  item?: string;
  before?: string;
}
export function listAudit(
  filters: AuditFilters,
  limit = 50,
): Promise<{ entries: AuditEntry[]; nextBefore?: string }> {
  const q = new URLSearchParams({ limit: String(limit) });
  for (const [k, v] of Object.entries(filters) as Array<[string, string | undefined]>) if (v) q.set(k, v);
  return request('GET', `/api/admin/audit?${q.toString()}`);
}
export const auditSettings = () => request<{ retentionDays: number }>('GET', '/api/admin/audit/settings');
export const setAuditSettings = (retentionDays: number) =>
  request<{ retentionDays: number }>('PUT', '/api/admin/audit/settings', { body: { retentionDays } });

// ---- versions (of the agent and of the IVR settings) ----
/** What is versioned: the agent definition, or the IVR settings. */
export type VersionedKind = 'agent' | 'ivr-settings';
export type VersionList = Answer<'/api/admin/apps/{streamId}/agent/versions', 'get'>;
export type VersionListed = Item<VersionList['versions']>;
export type VersionDiff = Answer<'/api/admin/apps/{streamId}/agent/versions/diff', 'get'>;
export const listVersions = (streamId: string, kind: VersionedKind) =>
  request<VersionList>('GET', `${app(streamId)}/${kind}/versions`);
export const diffVersions = (streamId: string, kind: VersionedKind, from: string, to: string) =>
  request<VersionDiff>('GET', `${app(streamId)}/${kind}/versions/diff?from=${enc(from)}&to=${enc(to)}`);
/** The agent answers its status (200 live at once, 202 when it trains first); the settings answer the settings now published. */
export const publishVersion = (streamId: string, kind: VersionedKind, version: string) =>
  request<unknown>('POST', `${app(streamId)}/${kind}/versions/${enc(version)}/publish`);
