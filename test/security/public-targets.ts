/**
 * Every public endpoint (model connections, data tables, skill-group import, conversation history,
 * batch tests, the result-file download and the sandbox entry) as a fuzz target, each built from a
 * valid request so most runs reach validation and the service behind it.
 */
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { SUITE, TABLE, type ApiClient, type SecurityFixture } from './security-fixture.js';
import { headerSafe, pathArb, q, type AuthVariant, type Target } from './fuzz-target.js';
import { hostileSegment, hostileString, mutatedBody } from './hostile-values.js';

export interface PublicCredentials {
  /** An API key with connections:view only. */
  viewKey: string;
  /** An API app of another app, holding every scope. */
  otherApp: ApiClient;
  /** An API app of the fixture app holding only the tables scope. */
  narrow: ApiClient;
}

const BAD_ADDRESS = '127.0.0.2';

export function apiKeyAuth(fx: SecurityFixture, c: PublicCredentials): fc.Arbitrary<AuthVariant> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ label: 'valid key', headers: { 'x-api-key': fx.apiKey } }) },
    { weight: 1, arbitrary: fc.constant({ label: 'view-only key', headers: { 'x-api-key': c.viewKey } }) },
    { weight: 1, arbitrary: fc.constant({ label: 'no key', headers: {}, localAddress: BAD_ADDRESS }) },
    {
      weight: 1,
      arbitrary: hostileString.map((s) => ({
        label: 'garbage key',
        headers: { 'x-api-key': headerSafe(s) || '-' },
        localAddress: BAD_ADDRESS,
      })),
    },
  );
}

export function jwtAuth(fx: SecurityFixture, c: PublicCredentials): fc.Arbitrary<AuthVariant> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constant(null).map(() => ({ label: 'valid jwt', headers: { auth: fx.client.token() } })),
    },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(
          () => ({ label: 'no auth header', headers: {} }),
          () => ({
            label: 'alg none',
            headers: { auth: jwt.sign({ appId: fx.client.clientId }, '', { algorithm: 'none' }) },
          }),
          () => ({ label: "another app's token", headers: { auth: c.otherApp.token() } }),
          () => ({ label: 'token without the scope', headers: { auth: c.narrow.token() } }),
          () => ({
            label: 'expired',
            headers: {
              auth: jwt.sign({ appId: fx.client.clientId, exp: 1 }, fx.client.clientSecret, {
                algorithm: 'HS256',
              }),
            },
          }),
        )
        .map((f) => f()),
    },
    {
      weight: 1,
      arbitrary: hostileString.map((s) => ({
        label: 'garbage jwt',
        headers: { auth: headerSafe(s) || '-' },
      })),
    },
  );
}

const noAuth = fc.constant<AuthVariant>({ label: 'no credentials', headers: {} });

const skillGroup = (streamId: string) => ({
  _id: 'sg-fuzz',
  name: 'Fuzz',
  description: 'd',
  status: 'ACTIVE',
  color: '#aabbcc',
  lname: 'fuzz',
  isDefault: false,
  iId: streamId,
  createdByAId: 'a-1',
  agentGroups: ['ag-1'],
  agents: ['a-1'],
  skills: [
    {
      _id: 'sk-1',
      name: 'S',
      isDefault: true,
      status: 'ACTIVE',
      iId: streamId,
      createdByAId: 'a-1',
      agents: [],
    },
  ],
});

const apiDefaultCreate = {
  provider: 'API',
  connectionName: 'Fuzz custom',
  model: 'm',
  fields: {},
  promptVars: [],
  customVars: [],
  endpointUrl: 'https://models.example.com/v1',
  headers: [{ key: 'Authorization', value: 'Bearer sk-fuzz-0123456789abcdefghij' }],
  payload: { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: '{{prompt}}' }] },
  outputPath: 'choices[0].message.content',
  status: 'FINALIZED',
  isEnable: true,
};
const apiExistingCreate = {
  provider: 'API',
  connectionName: 'Fuzz mapped',
  model: 'm',
  endpointUrl: 'https://models.example.com/v1',
  headers: [{ key: 'api-key', value: 'k' }],
  status: 'FINALIZED',
  isEnable: true,
  idp: 'none',
  bodyTab: 'providerReferences',
  mapProvider: 'vendorCModel',
  IOMappings: ['textToText'],
  llmFeatures: {
    toolCalling: false,
    supportTools: false,
    parallelToolCalling: false,
    structuredResponse: true,
    dataGeneration: false,
    streaming: false,
  },
};
const hostedBCreate = {
  provider: 'HostedModelB',
  connectionName: 'Fuzz B',
  model: 'b',
  modelType: 'EASY_INTEGRATION',
  fields: {
    API_KEY: 'b-key-0123456789',
    api_version: '2024-05-01-preview',
    your_resource_name: 'res',
    deployment_id: 'dep',
  },
};

export function publicTargets(
  fx: SecurityFixture,
  c: PublicCredentials,
): Array<{ target: Target; runs: number }> {
  const keyAuth = apiKeyAuth(fx, c);
  const appAuth = jwtAuth(fx, c);
  const streamId = fx.ivr.streamId;
  const historyBody = {
    userId: 'u-1',
    limit: 10,
    includeSecureForm: true,
    includeTraceId: true,
    forward: false,
    sessionId: ['ss-1'],
    tags: { a: 'b' },
    channelType: 'ivr',
    dateFrom: '2024-05-01',
    dateTo: '2024-05-03',
  };
  const historyQuery = [q('userId', 'u-1'), q('limit', '10'), q('includeSecureForm', 'true')];
  const historyKeys = [
    'userId',
    'skip',
    'offset',
    'limit',
    'channelType',
    'dateFrom',
    'dateTo',
    'msgId',
    'direction',
    'forward',
    'includeTraceId',
    'includeSecureForm',
    'getAgentsInfo',
    'sessionId',
    'callId',
    'tags',
  ];
  const historyPath = fc
    .tuple(
      fc.oneof({ weight: 5, arbitrary: fc.constant(streamId) }, { weight: 1, arbitrary: hostileSegment }),
      fc.constantFrom('getMessages', 'getMessagesV2'),
    )
    .map(([bot, v]) => `/api/public/bot/${bot}/${v}`);
  return [
    {
      runs: 30,
      target: {
        name: 'GET /api/public/connections',
        methods: ['GET'],
        path: fc.constant('/api/public/connections'),
        auth: keyAuth,
        queryKeys: ['provider', 'status', 'limit'],
        baseQuery: [q('provider', 'HostedModelA'), q('limit', '5')],
      },
    },
    {
      runs: 20,
      target: {
        name: 'GET /api/public/connections/:connectionId',
        methods: ['GET'],
        path: fc
          .constantFrom(fx.hostedConnectionId, fx.apiConnectionId)
          .chain((id) => pathArb('/api/public/connections/:id', { id })),
        auth: keyAuth,
      },
    },
    {
      runs: 50,
      target: {
        name: 'POST /api/public/connections',
        methods: ['POST'],
        path: fc.constant('/api/public/connections'),
        auth: keyAuth,
        body: fc.oneof(
          mutatedBody({
            provider: 'HostedModelA',
            connectionName: 'Fuzz A',
            model: 'a',
            fields: { API_KEY: 'sk-a-0123456789' },
          }),
          mutatedBody(hostedBCreate),
          mutatedBody(apiDefaultCreate),
          mutatedBody(apiExistingCreate),
        ),
      },
    },
    {
      runs: 30,
      target: {
        name: 'PATCH /api/public/connections/:connectionId',
        methods: ['PATCH'],
        auth: keyAuth,
        path: fc
          .constantFrom(fx.hostedConnectionId, fx.apiConnectionId)
          .chain((id) => pathArb('/api/public/connections/:id', { id })),
        body: mutatedBody({ fields: { API_KEY: 'sk-rotated-0123456789' } }),
      },
    },
    {
      runs: 40,
      target: {
        name: 'POST /api/public/tables/:tableName',
        methods: ['POST'],
        path: pathArb('/api/public/tables/:t', { t: TABLE }),
        auth: appAuth,
        body: mutatedBody({
          data: { name: 'Ann', qty: 2, due: '2024-05-01T10:00:00Z', ssn: '123-45-6789', ref: 'r-1' },
        }),
      },
    },
    {
      runs: 40,
      target: {
        name: 'POST /assist/api/v1/public/analytics/:botId/storeAssistFunctionalities',
        methods: ['POST'],
        auth: appAuth,
        path: pathArb('/assist/api/v1/public/analytics/:botId/storeAssistFunctionalities', {
          botId: streamId,
        }),
        queryKeys: ['accountId', 'orgId', 'type'],
        baseQuery: [q('accountId', 'acc-fuzz'), q('orgId', 'org-fuzz'), q('type', 'skillGroups')],
        headers: { accountId: 'acc-fuzz' },
        body: mutatedBody({
          data: [skillGroup(streamId)],
          metaData: { userId: 'u-1', orgId: 'org-fuzz', type: 'skillGroups', accountId: 'acc-fuzz' },
        }),
      },
    },
    {
      runs: 30,
      target: {
        name: 'GET /api/public/bot/:botId/getMessages and getMessagesV2',
        methods: ['GET'],
        path: historyPath,
        auth: appAuth,
        queryKeys: historyKeys,
        baseQuery: historyQuery,
      },
    },
    {
      runs: 40,
      target: {
        name: 'POST /api/public/bot/:botId/getMessages and getMessagesV2, POST /api/public/getMessages',
        methods: ['POST'],
        auth: appAuth,
        queryKeys: historyKeys,
        path: fc.oneof(
          { weight: 3, arbitrary: historyPath },
          { weight: 1, arbitrary: fc.constant('/api/public/getMessages') },
        ),
        body: mutatedBody(historyBody),
      },
    },
    {
      runs: 25,
      target: {
        name: 'POST /api/public/bot/:botId/testsuite/:name/run',
        methods: ['POST'],
        auth: appAuth,
        encodings: ['json', 'urlencoded'],
        queryKeys: ['runType'],
        path: pathArb('/api/public/bot/:botId/testsuite/:name/run', { botId: streamId, name: SUITE }),
        body: mutatedBody({ runType: 'inDevelopment' }),
        headers: { 'bot-language': 'en' },
      },
    },
    {
      runs: 25,
      target: {
        name: 'GET /api/public/bot|stream/:id/testsuite/:name/:runId/status',
        methods: ['GET'],
        auth: appAuth,
        path: fc.constantFrom('bot', 'stream').chain((form) =>
          pathArb(`/api/public/${form}/:id/testsuite/:name/:runId/status`, {
            id: streamId,
            name: SUITE,
            runId: fx.runId,
          }),
        ),
      },
    },
    {
      runs: 20,
      target: {
        name: 'GET /api/public/testruns/files/:fileId',
        methods: ['GET'],
        auth: noAuth,
        path: pathArb('/api/public/testruns/files/:fileId', { fileId: 'file-1' }),
        queryKeys: ['exp', 'sig'],
        baseQuery: [q('exp', String(Date.now() + 60_000)), q('sig', 'AAAA')],
      },
    },
    {
      runs: 40,
      target: {
        name: 'GET|POST /ivr/sandbox/:phoneNumber',
        methods: ['GET', 'POST'],
        auth: noAuth,
        vxml: true,
        encodings: ['json', 'urlencoded', 'multipart'],
        path: pathArb('/ivr/sandbox/:n', { n: fx.sandbox.phoneNumber }),
        queryKeys: ['step', 'callId', 'from', 'attempt', 'pin', 'secret'],
        body: mutatedBody({
          from: '+15550001234',
          callId: 'sb-fuzz',
          step: 'login',
          attempt: '00000000-0000-0000-0000-000000000000',
          pin: '000000',
          secret: '00000000',
        }),
      },
    },
  ];
}
