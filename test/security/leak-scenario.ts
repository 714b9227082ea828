/**
 * A full scenario through the whole service that creates every kind of secret and uses it: apps,
 * API apps, API keys, model connections with provider keys (one custom API connection carries the
 * model key in a header), the IVR channel, a sandbox (PIN and secret), IVR calls that reach every
 * model connection through a local model stub, history reads, table inserts with an encrypted
 * column, a batch test run with its result file. Every request goes through a recording client.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoAgentDefinition } from '../../src/agent/index.js';
import { signHs256 } from '../../src/platform/index.js';
import { MemoryStore, type Store } from '../../src/store/index.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { waitUntilAgentLive } from '../helpers/agent-upload.js';
import { testPrefix } from '../helpers/test-stores.js';
import { runCall, type CallResult } from '../../sandbox/index.js';
import { RELAXED_LIMITS, recordingClient, type Exchange, type RecordingClient } from './security-fixture.js';

/** Label prefix of the create answers in which the contract shows a secret once. */
export const SHOWN_ONCE = 'shown once: ';
export const MODEL_TEXT = 'We are open from noon to eleven.';

export interface Secret {
  name: string;
  value: string;
  /** digits: matched as a whole number (a 6-digit PIN inside a timestamp is not it). */
  kind: 'text' | 'digits' | 'jwt';
  /** An answer (by its request) that may carry this value back to its own sender, per the contract. */
  reflectedBy?: (e: Exchange) => boolean;
}

export interface Scenario {
  gw: RunningGateway;
  rec: RecordingClient;
  secrets: Secret[];
  /** Requests the model stub received (to show the keys were really used). */
  modelRequests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  heard: string[];
  sandboxCall: CallResult;
  close: () => Promise<void>;
}

async function startModelStub() {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      res.setHeader('Content-Type', 'application/json');
      if (req.url?.startsWith('/reject')) {
        // as real providers do: the refused key echoed in the error body
        res.statusCode = 401;
        res.end(
          JSON.stringify({
            error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}` },
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          choices: [{ message: { content: MODEL_TEXT } }],
          content: [{ type: 'text', text: MODEL_TEXT }],
          usage: { prompt_tokens: 3, completion_tokens: 4, input_tokens: 3, output_tokens: 4 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const key = (tag: string): string =>
  `sk-${tag}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}XyZ9`;
const need = (what: string, r: { status: number; body: any }, status: number): any => {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
};
const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export async function runLeakScenario(): Promise<Scenario> {
  const stub = await startModelStub();
  const store: Store = new MemoryStore(testPrefix());
  const gw = await startGateway({
    store,
    config: { allowPrivateModelEndpoints: true, turnDeadlineMs: 2_000 },
    options: {
      ...RELAXED_LIMITS,
      providerBaseUrls: {
        HostedModelA: `${stub.url}/a`,
        HostedModelB: `${stub.url}/b/{resource}`,
        HostedModelC: `${stub.url}/c`,
      },
    },
  });
  const rec = recordingClient(gw);
  const secrets: Secret[] = [];
  const keep = (
    name: string,
    value: string,
    kind: Secret['kind'] = 'text',
    reflectedBy?: Secret['reflectedBy'],
  ): string => {
    secrets.push({ name, value, kind, ...(reflectedBy ? { reflectedBy } : {}) });
    return value;
  };
  keep('ADMIN_TOKEN', gw.config.adminToken);
  keep('MASTER_KEY', gw.config.masterKey.toString('base64'));

  // apps, API apps, API keys
  const streamId = need(
    'app',
    await rec.admin('create app', 'POST', '/api/admin/apps', { name: 'Leak test', language: 'en' }),
    201,
  ).streamId as string;
  const apiApp = async (label: string, scopes: string[]) => {
    const b = need(
      label,
      await rec.admin(`${SHOWN_ONCE}${label}`, 'POST', `/api/admin/apps/${streamId}/api-apps`, {
        name: label,
        scopes,
      }),
      201,
    );
    keep(`clientSecret of ${label}`, b.clientSecret);
    return (claims: Record<string, unknown> = {}) =>
      keep(
        `JWT of ${label}`,
        signHs256({ appId: b.clientId, sub: 'u-leak', ...claims }, b.clientSecret),
        'jwt',
      );
  };
  const assistJwt = await apiApp('create API app (assist)', ['assist-import-export']);
  const allJwt = await apiApp('create API app (all scopes)', ['chat-history', 'batch-tests', 'tables']);
  const manageKey = keep(
    'API key (manage)',
    need(
      'key',
      await rec.admin(`${SHOWN_ONCE}create API key (manage)`, 'POST', '/api/admin/api-keys', {
        name: 'm',
        scopes: ['connections:view', 'connections:manage'],
      }),
      201,
    ).apiKey,
  );
  const viewKey = keep(
    'API key (view)',
    need(
      'key',
      await rec.admin(`${SHOWN_ONCE}create API key (view)`, 'POST', '/api/admin/api-keys', {
        name: 'v',
        scopes: ['connections:view'],
      }),
      201,
    ).apiKey,
  );

  // skill group import
  need(
    'import',
    await rec.json(
      'skill-group import',
      'POST',
      `/assist/api/v1/public/analytics/${streamId}/storeAssistFunctionalities?accountId=acc-1&orgId=org-1&type=skillGroups`,
      { auth: assistJwt(), accountId: 'acc-1' },
      {
        data: [
          {
            _id: 'sg-reservations',
            name: 'Reservations',
            status: 'ACTIVE',
            isDefault: false,
            iId: streamId,
            createdByAId: 'a-1',
            skills: [],
          },
        ],
        metaData: { userId: 'u-1', orgId: 'org-1', type: 'skillGroups', accountId: 'acc-1' },
      },
    ),
    200,
  );

  // model connections
  const mk = { 'x-api-key': manageKey };
  const conn = async (label: string, body: Record<string, unknown>) =>
    need(label, await rec.json(label, 'POST', '/api/public/connections', mk, body), 201)
      .connectionId as string;
  const a = await conn('create HostedModelA', {
    provider: 'HostedModelA',
    connectionName: 'A',
    model: 'a-1',
    fields: { API_KEY: keep('HostedModelA key', key('a')) },
  });
  const b = await conn('create HostedModelB', {
    provider: 'HostedModelB',
    connectionName: 'B',
    model: 'b-1',
    modelType: 'EASY_INTEGRATION',
    fields: {
      API_KEY: keep('HostedModelB key', key('b')),
      api_version: '2024-05-01-preview',
      your_resource_name: 'res',
      deployment_id: 'dep',
    },
  });
  const c = await conn('create HostedModelC', {
    provider: 'HostedModelC',
    connectionName: 'C',
    model: 'c-1',
    modelType: 'EASY_INTEGRATION',
    fields: { API_KEY: keep('HostedModelC key', key('c')) },
  });
  const custom = await conn('create API (model key in a header)', {
    provider: 'API',
    connectionName: 'Custom',
    model: 'm-1',
    fields: { API_KEY: keep('API fields.API_KEY', key('f')), LLM_API_KEY: keep('API LLM_API_KEY', key('l')) },
    promptVars: [],
    customVars: [],
    endpointUrl: `${stub.url}/custom/v1/chat/completions`,
    headers: [
      { key: 'Authorization', value: `Bearer ${keep('API header model key', key('h'))}` },
      { key: 'X-Team', value: 'voice' },
    ],
    payload: { model: 'm-1', max_tokens: 20, messages: [{ role: 'user', content: '{{prompt}}' }] },
    outputPath: 'choices[0].message.content',
    status: 'FINALIZED',
    isEnable: true,
  });
  const rejected = await conn('create API (key the provider refuses)', {
    provider: 'API',
    connectionName: 'Refused',
    model: 'm-2',
    endpointUrl: `${stub.url}/reject/v1/chat/completions`,
    headers: [{ key: 'Authorization', value: `Bearer ${keep('API key the provider refuses', key('z'))}` }],
    payload: { model: 'm-2', max_tokens: 20, messages: [{ role: 'user', content: '{{prompt}}' }] },
    outputPath: 'choices[0].message.content',
  });
  const mapped = await conn('create API (existing provider)', {
    provider: 'API',
    connectionName: 'Mapped',
    model: 'mp-1',
    endpointUrl: `${stub.url}/mapped/v1/chat/completions`,
    headers: [{ key: 'api-key', value: keep('API existing-provider header key', key('e')) }],
    status: 'FINALIZED',
    isEnable: true,
    idp: 'none',
    bodyTab: 'providerReferences',
    mapProvider: 'vendorAModel',
    IOMappings: ['textToText'],
  });
  need(
    'bad create',
    await rec.json('create refused (400)', 'POST', '/api/public/connections', mk, {
      provider: 'HostedModelA',
      connectionName: '',
      model: 5,
      fields: { API_KEY: keep('key in a refused create', key('r')) },
    }),
    400,
  );
  need(
    'patch',
    await rec.json('rotate HostedModelA key', 'PATCH', `/api/public/connections/${a}`, mk, {
      fields: { API_KEY: keep('rotated HostedModelA key', key('n')) },
    }),
    200,
  );
  need(
    'patch API',
    await rec.json('patch API connection (422)', 'PATCH', `/api/public/connections/${custom}`, mk, {
      fields: { API_KEY: keep('key in a refused patch', key('x')) },
    }),
    422,
  );
  need(
    'list',
    await rec.json('list connections', 'GET', '/api/public/connections', { 'x-api-key': viewKey }),
    200,
  );
  for (const id of [a, b, c, custom, mapped, rejected])
    need(
      'get',
      await rec.json('read connection', 'GET', `/api/public/connections/${id}`, { 'x-api-key': viewKey }),
      200,
    );
  need(
    'wrong key',
    await rec.json('wrong API key', 'GET', '/api/public/connections', { 'x-api-key': `${manageKey}x` }),
    401,
  );

  // the agent: AskQuestion runs every model connection in turn
  const agent = structuredClone(demoAgentDefinition) as any;
  const llm = (connectionId: string, saveAs: string, next: string) => ({
    type: 'llm',
    connectionId,
    prompt: 'Caller question: {{session.BotUserSession.lastMessage.text}}',
    saveAs,
    errorPrompt: `Model ${saveAs} failed.`,
    next: [{ goto: next }],
  });
  agent.dialogs.ask.nodes = {
    wait: { type: 'message', text: 'Let me check that for you.', next: [{ goto: 'refused' }] },
    refused: llm(rejected, 'r', 'a'),
    a: llm(a, 'a', 'b'),
    b: llm(b, 'b', 'c'),
    c: llm(c, 'c', 'mapped'),
    mapped: llm(mapped, 'm', 'custom'),
    custom: llm(custom, 'answer', 'readBack'),
    readBack: { type: 'message', text: '{{context.answer}}', next: [{ goto: 'more' }] },
    more: { type: 'message', text: 'Anything else?' },
  };
  need('agent', await rec.admin('set agent', 'PUT', `/api/admin/apps/${streamId}/agent`, agent), 202);
  await waitUntilAgentLive((method, path, body) => rec.admin('agent status', method, path, body), streamId);
  need(
    'settings',
    await rec.admin('IVR settings', 'PUT', `/api/admin/apps/${streamId}/ivr-settings`, { enabled: true }),
    200,
  );
  const ch = need(
    'channel',
    await rec.admin(`${SHOWN_ONCE}enable IVR channel`, 'PUT', `/api/admin/apps/${streamId}/channels/ivr`, {
      enabled: true,
    }),
    200,
  );
  keep('IVR channel clientSecret', ch.clientSecret);
  // the webhook token is, per the contract, in the submit URL of every document answering a request that carried it
  const hookToken = signHs256({ appId: ch.clientId, sub: '+15550001111' }, ch.clientSecret, 3600);
  keep(
    'webhook token',
    hookToken,
    'jwt',
    (e) =>
      e.request.path.startsWith(`/ivr/hooks/${streamId}?`) &&
      e.request.path.includes(encodeURIComponent(hookToken)) &&
      e.answer.contentType.startsWith('application/voicexml+xml'),
  );

  // data table with an encrypted column
  need(
    'table',
    await rec.admin('define table', 'PUT', '/api/admin/tables/leak_rows', {
      columns: [
        { name: 'name', type: 'string' },
        { name: 'ssn', type: 'string', encrypted: true },
        { name: 'qty', type: 'number' },
      ],
      access: { [streamId]: { read: true, write: true } },
    }),
    200,
  );
  const ssn = keep(
    'encrypted column value',
    `enc-${key('s')}`,
    'text',
    (e) => e.label === "table insert (the writer's own record)",
  );
  need(
    'insert',
    await rec.json(
      "table insert (the writer's own record)",
      'POST',
      '/api/public/tables/leak_rows',
      { auth: allJwt() },
      { data: { name: 'Ann', ssn, qty: 1 } },
    ),
    201,
  );
  need(
    'bad insert',
    await rec.json(
      'table insert refused (400)',
      'POST',
      '/api/public/tables/leak_rows',
      { auth: allJwt() },
      {
        data: {
          name: 'Bob',
          ssn: keep('encrypted value in a refused insert', `enc-${key('t')}`),
          qty: 'many',
          other: 1,
        },
      },
    ),
    400,
  );

  // sandbox (PIN and secret)
  const sb = need(
    'sandbox',
    await rec.admin(`${SHOWN_ONCE}enable sandbox`, 'PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 3,
    }),
    200,
  );
  keep('sandbox PIN', sb.pin, 'digits');
  keep('sandbox secret', sb.secret, 'digits');
  // later PUTs answer without the secrets (shown only on create and on rotation)
  need(
    'channel again',
    await rec.admin('enable IVR channel again', 'PUT', `/api/admin/apps/${streamId}/channels/ivr`, {
      enabled: true,
    }),
    200,
  );
  need(
    'sandbox again',
    await rec.admin('change sandbox lines', 'PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 3,
    }),
    200,
  );

  // IVR calls on the webhook
  const heard: string[] = [];
  const hookPath = `/ivr/hooks/${streamId}?token=${encodeURIComponent(hookToken)}`;
  const callThrough = async (callId: string, steps: Array<Record<string, string>>) => {
    let path = hookPath;
    let turn = '0';
    for (const [i, step] of steps.entries()) {
      const params =
        i === 0
          ? { callId, message: '', from: '+15550001111', to: streamId, ...step }
          : { callId, turn, ...step };
      const ans = await rec.call('webhook turn', {
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      heard.push(ans.text);
      turn = /<var name="turn" expr="'(\d+)'"/.exec(ans.text)?.[1] ?? turn;
      const next = /<submit[^>]*next="([^"]+)"/.exec(ans.text)?.[1]?.replace(/&amp;/g, '&');
      if (next) path = pathOf(next);
      if (ans.text.includes('expr="\'poll\'"')) steps.splice(i + 1, 0, { event: 'poll' });
    }
  };
  const say = (message: string) => ({
    message,
    interpretation: message,
    confidence: '0.900000',
    inputmode: 'voice',
  });
  await callThrough('leak-call-1', [
    {},
    say('what are your opening hours'),
    { event: 'continue' },
    say('talk to a human'),
    { event: 'transfer', transferResult: 'near_end_disconnect' },
  ]);
  await callThrough('leak-call-2', [{}, say('book a table'), say('four'), say('tomorrow'), say('yes')]);
  await rec.call('webhook with a wrong token', {
    method: 'POST',
    path: `/ivr/hooks/${streamId}?token=${encodeURIComponent(signHs256({ appId: ch.clientId }, 'wrong'))}`,
    headers: { 'Content-Type': 'application/json' },
    body: '{"callId":"x"}',
  });
  const sandboxCall = await runCall({
    startUrl: `${gw.url}/ivr/sandbox/${encodeURIComponent(sb.phoneNumber)}`,
    startMethod: 'POST',
    startParams: { from: '+15550002222' },
    pin: sb.pin,
    secret: sb.secret,
    mode: 'lenient',
    inputs: ['what are your opening hours', 'book a table', 'two', 'tomorrow', 'yes'],
    fetch: rec.fetch('sandbox call'),
    plain: true,
  });

  // history reads
  const h = { auth: allJwt() };
  for (const [label, method, path, body] of [
    [
      'history v1 GET',
      'GET',
      `/api/public/bot/${streamId}/getMessages?userId=leak-call-1&limit=100`,
      undefined,
    ],
    [
      'history v2 GET',
      'GET',
      `/api/public/bot/${streamId}/getMessagesV2?userId=%2B15550002222&includeSecureForm=true`,
      undefined,
    ],
    [
      'history v1 POST',
      'POST',
      `/api/public/bot/${streamId}/getMessages`,
      { includeTraceId: true, limit: 100 },
    ],
    ['history admin-console POST', 'POST', '/api/public/getMessages', { userId: 'leak-call-2' }],
  ] as const)
    need(label, await rec.json(label, method, path, h, body), 200);

  // a batch test run and its result file
  need(
    'suite',
    await rec.admin('define suite', 'PUT', `/api/admin/apps/${streamId}/testsuites/leak`, {
      utterances: [
        { utterance: 'book a table', intent: 'BookTable' },
        { utterance: 'hello', intent: 'None' },
      ],
    }),
    200,
  );
  const run = need(
    'run',
    await rec.json(
      'launch run',
      'POST',
      `/api/public/bot/${streamId}/testsuite/leak/run`,
      { auth: allJwt() },
      {},
    ),
    202,
  );
  let status: any;
  for (let i = 0; i < 50; i++) {
    status = need(
      'status',
      await rec.json('run status', 'GET', `/api/public/bot/${streamId}/testsuite/leak/${run._id}/status`, {
        auth: allJwt(),
      }),
      200,
    );
    if (status.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!status?.result?.fileUrl) throw new Error(`run did not complete: ${JSON.stringify(status)}`);
  if (
    (await rec.call('download result file', { method: 'GET', path: pathOf(status.result.fileUrl) }))
      .status !== 200
  )
    throw new Error('result file');

  // rotations show the new secrets once; the read-backs below must not
  keep(
    'rotated IVR channel clientSecret',
    need(
      'rotate channel',
      await rec.admin(
        `${SHOWN_ONCE}rotate IVR channel secret`,
        'POST',
        `/api/admin/apps/${streamId}/channels/ivr/rotate-secret`,
      ),
      200,
    ).clientSecret,
  );
  const rotatedSandbox = need(
    'rotate sandbox',
    await rec.admin(
      `${SHOWN_ONCE}rotate sandbox PIN and secret`,
      'POST',
      `/api/admin/apps/${streamId}/ivr-sandbox/rotate-secret`,
    ),
    200,
  );
  keep('rotated sandbox PIN', rotatedSandbox.pin, 'digits');
  keep('rotated sandbox secret', rotatedSandbox.secret, 'digits');
  need(
    'channel after rotation',
    await rec.admin('enable IVR channel after rotation', 'PUT', `/api/admin/apps/${streamId}/channels/ivr`, {
      enabled: true,
    }),
    200,
  );
  need(
    'sandbox after rotation',
    await rec.admin('enable sandbox after rotation', 'PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, {
      enabled: true,
    }),
    200,
  );

  // operator read-backs
  for (const path of [
    `/api/admin/apps/${streamId}`,
    `/api/admin/apps/${streamId}/channels/ivr`,
    `/api/admin/apps/${streamId}/ivr-settings`,
    `/api/admin/apps/${streamId}/agent`,
    `/api/admin/apps/${streamId}/skill-groups?accountId=acc-1&orgId=org-1`,
    '/api/admin/tables/leak_rows',
    `/api/admin/apps/${streamId}/testsuites/leak`,
    '/api/admin/apps',
  ]) {
    need(path, await rec.admin('operator read-back', 'GET', path), 200);
  }
  need(
    'wrong admin',
    await rec.json('wrong admin token', 'GET', '/api/admin/apps', {
      Authorization: `Bearer ${gw.config.adminToken}x`,
    }),
    401,
  );

  return {
    gw,
    rec,
    secrets,
    modelRequests: stub.seen,
    heard,
    sandboxCall,
    async close() {
      await gw.close();
      await stub.close();
      await store.close();
    },
  };
}
