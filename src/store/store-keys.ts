/**
 * The only place that builds storage keys. Keys are logical (adapters add KEY_PREFIX) and carry a
 * Redis Cluster hash tag: `{c:<callId>}` for everything of one call, `{a:<streamId>}` for an app's
 * records and history indexes, `{t:<table>}` for a table's rows and unique indexes. Ids are
 * sanitised so a caller-supplied id cannot inject another tag.
 *
 * A call is one callId within one app (`{c:<streamId>:<callId>}`): the same callId in two apps is
 * two calls, so one app can neither see nor squat another app's call. Stream ids are generated
 * (`st-<uuid>`, no colon), so the pair reads back unambiguously.
 */
const safe = (id: string): string => id.replace(/[{}\s]/g, '_');
const call = (streamId: string, callId: string) => `call:{c:${safe(streamId)}:${safe(callId)}}`;
const app = (streamId: string) => `app:{a:${safe(streamId)}}`;
const table = (name: string) => `table:{t:${safe(name)}}`;

export const storeKeys = {
  /** Every key of one app starts with this (records, settings, history, suites, runs…). */
  appScope: (streamId: string) => `${app(streamId)}:`,
  // operator data
  appRecord: (streamId: string) => `${app(streamId)}:record`,
  appIndex: () => 'apps:index',
  agentDefinition: (streamId: string) => `${app(streamId)}:agent`,
  agentModel: (streamId: string) => `${app(streamId)}:agent-model`,
  /** The latest upload while its model trains (or after training failed), and its definition. */
  agentUpload: (streamId: string) => `${app(streamId)}:agent-upload`,
  agentUploadDefinition: (streamId: string) => `${app(streamId)}:agent-upload-definition`,
  /** Held (with a renewed expiry) by the instance training the upload. */
  agentTrainingLock: (streamId: string) => `${app(streamId)}:agent-training`,
  /** The latest trained draft of the agent (a saved version not yet published) and its model; the sandbox may answer from it. */
  agentDraft: (streamId: string) => `${app(streamId)}:agent-draft`,
  agentDraftModel: (streamId: string) => `${app(streamId)}:agent-draft-model`,
  /** The agent's saved versions by the time they were saved (a sorted set), and each one's record and definition. */
  agentVersions: (streamId: string) => `${app(streamId)}:agent-versions`,
  agentVersion: (streamId: string, version: string) => `${app(streamId)}:agent-version:${safe(version)}`,
  /** The IVR settings' saved versions (a sorted set by time), each one's document, and the draft pointer. */
  ivrSettingsVersions: (streamId: string) => `${app(streamId)}:ivr-settings-versions`,
  ivrSettingsVersion: (streamId: string, version: string) =>
    `${app(streamId)}:ivr-settings-version:${safe(version)}`,
  ivrSettingsDraft: (streamId: string) => `${app(streamId)}:ivr-settings-draft`,
  apiApp: (clientId: string) => `apiapp:{k:${safe(clientId)}}`,
  appApiApps: (streamId: string) => `${app(streamId)}:api-apps`,
  apiKeyByHash: (hash: string) => `apikey:{k:${safe(hash)}}`,
  apiKeyIndex: () => 'apikeys:index',
  /** The client id of the API app the operator console uses for an app's public APIs (one per app, reused). */
  consoleApiApp: (streamId: string) => `${app(streamId)}:console-api-app`,
  /** The API key the operator console uses for the connections API, sealed (one, reused). */
  consoleApiKey: () => 'console:api-key',
  // IVR channel, settings and sandbox
  ivrChannel: (streamId: string) => `${app(streamId)}:ivr-channel`,
  ivrChannelByClient: (clientId: string) => `ivr-client:{k:${safe(clientId)}}`,
  ivrSettings: (streamId: string) => `${app(streamId)}:ivr-settings`,
  sandbox: (streamId: string) => `${app(streamId)}:sandbox`,
  sandboxNumber: (phoneNumber: string) => `sandbox-number:{n:${safe(phoneNumber)}}`,
  sandboxLines: (streamId: string) => `${app(streamId)}:sandbox-lines`,
  sandboxLogin: (attemptId: string) => `sandbox-login:{l:${safe(attemptId)}}`,
  // one call of one app (all share the call's slot)
  callSession: (streamId: string, callId: string) => `${call(streamId, callId)}:session`,
  callLock: (streamId: string, callId: string) => `${call(streamId, callId)}:lock`,
  /** The call's turn traces (a capped list, oldest first), written in the step of each turn's commit. */
  callTrace: (streamId: string, callId: string) => `${call(streamId, callId)}:trace`,
  // the inspector's per-app view of calls: callIds scored by start (ms), a summary hash per call, and
  // the live feed of traced turns (a stream). In the app's slot: on a Cluster written after the commit.
  callIndex: (streamId: string) => `${app(streamId)}:calls`,
  callSummary: (streamId: string, callId: string) => `${app(streamId)}:call:${safe(callId)}`,
  callFeed: (streamId: string) => `${app(streamId)}:call-feed`,
  // live calls by when they fall idle (`<streamId> <callId>` scored by ms since epoch): the idle sweep claims
  // from it. One key for every call, so on a Redis Cluster it lives in its own slot.
  idleCalls: () => 'calls:idle',
  // history (per app: one slot for a message and its indexes). Message indexes are sorted sets of
  // message ids scored by createdOn ms, one per `view` = `<channelType>:<d|x>` (d: Dialog task
  // messages, x: Alert and Action); session sets hold session ids scored by the session's first
  // message, one per `view` = `<channelType>:<v1|v2>`. See src/history/history-layout.ts.
  message: (streamId: string, msgId: string) => `${app(streamId)}:msg:${safe(msgId)}`,
  historyByApp: (streamId: string, view: string) => `${app(streamId)}:h:${safe(view)}:all`,
  historyByUser: (streamId: string, view: string, identity: string) =>
    `${app(streamId)}:h:${safe(view)}:u:${safe(identity)}`,
  historyBySession: (streamId: string, view: string, sessionId: string) =>
    `${app(streamId)}:h:${safe(view)}:s:${safe(sessionId)}`,
  historyByTag: (streamId: string, view: string, tag: string) =>
    `${app(streamId)}:h:${safe(view)}:t:${safe(tag)}`,
  historySessionsByUser: (streamId: string, view: string, identity: string) =>
    `${app(streamId)}:hs:${safe(view)}:u:${safe(identity)}`,
  historySessionsByApp: (streamId: string, view: string) => `${app(streamId)}:hs:${safe(view)}:all`,
  historySessionMeta: (streamId: string, sessionId: string) =>
    `${app(streamId)}:h-session:${safe(sessionId)}`,
  historyTrace: (streamId: string, msgId: string) => `${app(streamId)}:trace:${safe(msgId)}`,
  // model connections
  connection: (connectionId: string) => `conn:{k:${safe(connectionId)}}`,
  connectionIndex: () => 'conns:index',
  // data tables
  tableDefinition: (name: string) => `${table(name)}:def`,
  tableRow: (name: string, id: string) => `${table(name)}:row:${safe(id)}`,
  tableRows: (name: string) => `${table(name)}:rows`,
  tableUnique: (name: string, column: string) => `${table(name)}:uniq:${safe(column)}`,
  /** An insert made with an idempotency key (a hash): the row id, so a repeated insert finds its row. */
  tableInsert: (name: string, keyHash: string) => `${table(name)}:insert:${safe(keyHash)}`,
  // skill groups (assist)
  skillGroups: (streamId: string, accountId: string, orgId: string) =>
    `${app(streamId)}:skill-groups:${safe(accountId)}:${safe(orgId)}`,
  skillGroupById: (streamId: string) => `${app(streamId)}:skill-group-ids`,
  // batch tests
  testSuite: (streamId: string, name: string) => `${app(streamId)}:suite:${safe(name)}`,
  testRun: (streamId: string, runId: string) => `${app(streamId)}:run:${safe(runId)}`,
  testRunIndex: (streamId: string) => `${app(streamId)}:runs`,
  testRunFile: (streamId: string, runId: string) => `${app(streamId)}:run-file:${safe(runId)}`,
  testRunsActive: () => 'testruns:active',
  // rate limits (rate-limiter-flexible adds its own key below this prefix)
  rateLimitPrefix: (name: string) => `rl:${safe(name)}`,
  // batch tests, continued: a run's result rows so far (app slot), the lock that keeps one run per
  // suite, fileId -> run, and the heartbeat of the instance that owns runs
  testRunRows: (streamId: string, runId: string) => `${app(streamId)}:run-rows:${safe(runId)}`,
  testSuiteRunLock: (streamId: string, name: string) => `${app(streamId)}:suite-run:${safe(name)}`,
  testRunFileRef: (fileId: string) => `testrun-file:{f:${safe(fileId)}}`,
  testRunOwner: (instanceId: string) => `testrun-owner:{o:${safe(instanceId)}}`,
  // operator console sign-in sessions, by the SHA-256 of the cookie's session id (never the id itself)
  consoleSession: (idHash: string) => `console-session:{s:${safe(idHash)}}`,

  // --- operator accounts and the audit trail (issue 44) ---
  // Every key of the accounts shares one slot ({op}): an account, its email index, its invitation and
  // its tokens change together in one atomic step. Few operators, so one slot is no hot spot.
  operatorAccount: (accountId: string) => `operators:{op}:account:${safe(accountId)}`,
  /** Account ids scored by when each was made. */
  operatorIndex: () => 'operators:{op}:index',
  /** The account id of an email, by the SHA-256 of the lower-cased address. */
  operatorEmail: (emailHash: string) => `operators:{op}:email:${safe(emailHash)}`,
  /** A pending invitation, by the SHA-256 of its token (never the token). */
  operatorInvitation: (tokenHash: string) => `operators:{op}:invitation:${safe(tokenHash)}`,
  /** A personal API token, by the SHA-256 of the token (never the token). */
  operatorToken: (tokenHash: string) => `operators:{op}:token:${safe(tokenHash)}`,
  /** An account's personal API tokens: token id -> JSON {name, createdOn, hash}. */
  operatorTokens: (accountId: string) => `operators:{op}:tokens:${safe(accountId)}`,
  /** The audit trail: entries (JSON with a unique id) scored by their time (ms); its retention setting. */
  auditLog: () => 'audit:{au}:log',
  auditSettings: () => 'audit:{au}:settings',
  // --- end of operator accounts and the audit trail ---
};

export type StoreKeys = typeof storeKeys;
