/**
 * The only place that builds storage keys. Keys are logical (adapters add KEY_PREFIX) and carry a
 * Redis Cluster hash tag: `{c:<callId>}` for everything of one call, `{a:<streamId>}` for an app's
 * records and history indexes, `{t:<table>}` for a table's rows and unique indexes. Ids are
 * sanitised so a caller-supplied id cannot inject another tag.
 */
const safe = (id: string): string => id.replace(/[{}\s]/g, '_');
const call = (callId: string) => `call:{c:${safe(callId)}}`;
const app = (streamId: string) => `app:{a:${safe(streamId)}}`;
const table = (name: string) => `table:{t:${safe(name)}}`;

export const storeKeys = {
  // operator data
  appRecord: (streamId: string) => `${app(streamId)}:record`,
  appIndex: () => 'apps:index',
  agentDefinition: (streamId: string) => `${app(streamId)}:agent`,
  agentModel: (streamId: string) => `${app(streamId)}:agent-model`,
  apiApp: (clientId: string) => `apiapp:{k:${safe(clientId)}}`,
  appApiApps: (streamId: string) => `${app(streamId)}:api-apps`,
  apiKeyByHash: (hash: string) => `apikey:{k:${safe(hash)}}`,
  apiKeyIndex: () => 'apikeys:index',
  // IVR channel, settings and sandbox
  ivrChannel: (streamId: string) => `${app(streamId)}:ivr-channel`,
  ivrChannelByClient: (clientId: string) => `ivr-client:{k:${safe(clientId)}}`,
  ivrSettings: (streamId: string) => `${app(streamId)}:ivr-settings`,
  sandbox: (streamId: string) => `${app(streamId)}:sandbox`,
  sandboxNumber: (phoneNumber: string) => `sandbox-number:{n:${safe(phoneNumber)}}`,
  sandboxLines: (streamId: string) => `${app(streamId)}:sandbox-lines`,
  sandboxLogin: (attemptId: string) => `sandbox-login:{l:${safe(attemptId)}}`,
  // one call (all share the call's slot)
  callSession: (callId: string) => `${call(callId)}:session`,
  callLock: (callId: string) => `${call(callId)}:lock`,
  callTurnDoc: (callId: string, turnKey: string) => `${call(callId)}:doc:${safe(turnKey)}`,
  callPending: (callId: string) => `${call(callId)}:pending`,
  // history (per app: one slot for a message and its indexes)
  message: (streamId: string, msgId: string) => `${app(streamId)}:msg:${safe(msgId)}`,
  historyByApp: (streamId: string) => `${app(streamId)}:h:all`,
  historyByUser: (streamId: string, userId: string) => `${app(streamId)}:h:user:${safe(userId)}`,
  historyBySession: (streamId: string, sessionId: string) => `${app(streamId)}:h:session:${safe(sessionId)}`,
  historySessionsByUser: (streamId: string, userId: string) => `${app(streamId)}:h:user-sessions:${safe(userId)}`,
  historySessionsByApp: (streamId: string) => `${app(streamId)}:h:sessions`,
  historyTrace: (streamId: string, msgId: string) => `${app(streamId)}:trace:${safe(msgId)}`,
  // model connections
  connection: (connectionId: string) => `conn:{k:${safe(connectionId)}}`,
  connectionIndex: () => 'conns:index',
  // data tables
  tableDefinition: (name: string) => `${table(name)}:def`,
  tableRow: (name: string, id: string) => `${table(name)}:row:${safe(id)}`,
  tableRows: (name: string) => `${table(name)}:rows`,
  tableUnique: (name: string, column: string) => `${table(name)}:uniq:${safe(column)}`,
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
};

export type StoreKeys = typeof storeKeys;
