/**
 * Property-based tests of the operator API (`/api/admin`, Bearer ADMIN_TOKEN) and the service's
 * own routes (health, readiness, OpenAPI, metrics): hostile bodies built from valid ones, hostile
 * paths, queries and tokens. Never a 5xx; 4xx answers in the error shape. Then operator-typed
 * texts (settings, prompts, training utterances) that are hostile: the documents a caller gets
 * stay valid VoiceXML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { signHs256, testConfig } from '../../src/platform/index.js';
import { pollutionProblem, prototypeSnapshot } from './answer-rules.js';
import { echoAgentDefinition } from './echo-agent.js';
import { waitUntilAgentTrained } from '../helpers/agent-upload.js';
import { fuzzTarget, headerSafe, pathArb, q, type AuthVariant, type Target } from './fuzz-target.js';
import { hostileString, mutatedBody } from './hostile-values.js';
import { checkProperty, startSecurityGateway, timed, type SecurityFixture } from './security-fixture.js';

const TEXT_RUNS = 12;

const settingsBody = {
  enabled: true,
  transcription: { enabled: false, engine: 'builtin:speech/transcribe' },
  welcomeMessage: 'Hello.',
  standardResponses: {
    noInput: 'Say again?',
    noMatch: 'Pardon?',
    error: 'Oops.',
    goodbye: 'Bye.',
    hold: 'Hold on.',
  },
  vxmlProperties: {
    timeout: '5s',
    bargein: true,
    interdigittimeout: '2s',
    termchar: '#',
    confidencelevel: 0.5,
    fetchtimeout: '10s',
    'com.vendor.x': 'y',
  },
  retries: 2,
  onExceedingRetries: { action: 'startDialog', dialog: 'welcome' },
  endOfConversationBehavior: 'terminateCall',
  callTerminationHandler: 'hangup',
  callControlParameters: [{ name: 'maxspeechtimeout', value: '10s' }],
  dataExtractionKey: 'user input',
  confidenceKey: 'userinput confidence',
  confidenceThreshold: 40,
  dialect: 'w3c',
};

function adminAuth(token: string): fc.Arbitrary<AuthVariant> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ label: 'admin', headers: { Authorization: `Bearer ${token}` } }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<AuthVariant>(
        { label: 'no token', headers: {} },
        { label: 'wrong token', headers: { Authorization: 'Bearer wrong-admin-token-0123456789' } },
        { label: 'token prefix', headers: { Authorization: `Bearer ${token.slice(0, -1)}` } },
        {
          label: 'basic scheme',
          headers: { Authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` },
        },
        { label: 'token in auth header', headers: { auth: token } },
      ),
    },
    {
      weight: 1,
      arbitrary: hostileString.map((s) => ({
        label: 'garbage',
        headers: { Authorization: `Bearer ${headerSafe(s)}` },
      })),
    },
  );
}

function operatorTargets(fx: SecurityFixture, victim: string): Array<{ target: Target; runs: number }> {
  const auth = adminAuth(fx.gw.config.adminToken);
  const app = (template: string) =>
    pathArb(template, { streamId: victim, name: 'suite_1', tableName: 'op_table' });
  return [
    {
      runs: 25,
      target: {
        name: 'POST /api/admin/apps',
        methods: ['POST'],
        auth,
        path: fc.constant('/api/admin/apps'),
        body: mutatedBody({ name: 'Fuzz', language: 'en-GB', icon: 'https://example.com/i.png' }),
      },
    },
    {
      runs: 25,
      target: {
        name: 'GET of app, agent, channel, settings, skill groups, suite and table',
        methods: ['GET'],
        auth,
        queryKeys: ['accountId', 'orgId'],
        baseQuery: [q('accountId', 'acc-1'), q('orgId', 'org-1')],
        path: fc
          .constantFrom(
            '/api/admin/apps',
            '/api/admin/apps/:streamId',
            '/api/admin/apps/:streamId/agent',
            '/api/admin/apps/:streamId/channels/ivr',
            '/api/admin/apps/:streamId/ivr-settings',
            '/api/admin/apps/:streamId/skill-groups',
            '/api/admin/apps/:streamId/testsuites/:name',
            '/api/admin/tables/:tableName',
          )
          .chain(app),
      },
    },
    {
      runs: 15,
      target: {
        name: 'DELETE /api/admin/apps/:streamId',
        methods: ['DELETE'],
        auth,
        path: pathArb('/api/admin/apps/:id', { id: 'st-00000000-0000-4000-8000-000000000000' }),
      },
    },
    {
      runs: 20,
      target: {
        name: 'POST /api/admin/apps/:streamId/api-apps',
        methods: ['POST'],
        auth,
        path: app('/api/admin/apps/:streamId/api-apps'),
        body: mutatedBody({ name: 'c', scopes: ['tables', 'chat-history'] }),
      },
    },
    {
      runs: 20,
      target: {
        name: 'POST /api/admin/api-keys',
        methods: ['POST'],
        auth,
        path: fc.constant('/api/admin/api-keys'),
        body: mutatedBody({ name: 'k', scopes: ['connections:view'] }),
      },
    },
    {
      runs: 20,
      target: {
        name: 'PUT /api/admin/apps/:streamId/agent',
        methods: ['PUT'],
        auth,
        path: app('/api/admin/apps/:streamId/agent'),
        body: mutatedBody(echoAgentDefinition),
      },
    },
    {
      runs: 15,
      target: {
        name: 'PUT /api/admin/apps/:streamId/channels/ivr',
        methods: ['PUT'],
        auth,
        path: app('/api/admin/apps/:streamId/channels/ivr'),
        body: mutatedBody({ enabled: true }),
      },
    },
    {
      runs: 30,
      target: {
        name: 'PUT /api/admin/apps/:streamId/ivr-settings',
        methods: ['PUT'],
        auth,
        path: app('/api/admin/apps/:streamId/ivr-settings'),
        body: mutatedBody(settingsBody),
      },
    },
    {
      runs: 20,
      target: {
        name: 'PATCH /api/admin/apps/:streamId/ivr-settings',
        methods: ['PATCH'],
        auth,
        path: app('/api/admin/apps/:streamId/ivr-settings'),
        body: mutatedBody({
          retries: 2,
          welcomeMessage: null,
          standardResponses: { noInput: 'Again?', noMatch: null },
          vxmlProperties: { 'com.vendor.x': 'y', timeout: null },
          onExceedingRetries: { action: 'jumpToNode', node: 'n', dialog: null },
        }),
      },
    },
    {
      runs: 10,
      target: {
        name: 'GET and DELETE /api/admin/apps/:streamId/ivr-sandbox/lockouts',
        methods: ['GET', 'DELETE'],
        auth,
        path: app('/api/admin/apps/:streamId/ivr-sandbox/lockouts'),
        queryKeys: ['kind', 'address', 'from'],
        baseQuery: [q('kind', 'caller')],
      },
    },
    {
      runs: 15,
      target: {
        name: 'PUT /api/admin/apps/:streamId/ivr-sandbox',
        methods: ['PUT'],
        auth,
        path: app('/api/admin/apps/:streamId/ivr-sandbox'),
        body: mutatedBody({ enabled: true, maxConcurrentCalls: 2 }),
      },
    },
    {
      runs: 25,
      target: {
        name: 'PUT /api/admin/tables/:tableName',
        methods: ['PUT'],
        auth,
        path: app('/api/admin/tables/:tableName'),
        body: mutatedBody({
          columns: [
            { name: 'a', type: 'string', maxLength: 10, required: true },
            { name: 'b', type: 'number', default: 2 },
            { name: 'c', type: 'date', unique: true },
            { name: 'd', type: 'string', encrypted: true },
          ],
          access: { [victim]: { read: true, write: true } },
        }),
      },
    },
    {
      runs: 20,
      target: {
        name: 'PUT /api/admin/apps/:streamId/testsuites/:name',
        methods: ['PUT'],
        auth,
        path: app('/api/admin/apps/:streamId/testsuites/:name'),
        body: mutatedBody({
          utterances: [
            { utterance: 'my name is', intent: 'GiveName', entities: [{ name: 'n', value: 'v' }] },
            { utterance: 'zzz', intent: 'None' },
          ],
        }),
      },
    },
    {
      runs: 15,
      target: {
        name: 'GET /healthz, /readyz, /openapi.json, /metrics',
        methods: ['GET'],
        auth: fc.constant({ label: 'none', headers: {} }),
        path: fc.constantFrom('/healthz', '/readyz', '/openapi.json', '/metrics'),
        queryKeys: ['format', '__proto__'],
      },
    },
  ];
}

describe('operator API under hostile input', () => {
  let fx: SecurityFixture;
  let victim: string;
  let snapshot: ReturnType<typeof prototypeSnapshot>;

  beforeAll(async () => {
    snapshot = prototypeSnapshot();
    // the fuzzer's wrong tokens all come from loopback: trusted here, so that they keep reaching the
    // comparison (the limit on guesses has its own suite, admin-guesses.integration.test.ts)
    // the fuzzed agent PUTs all go to one app: its upload limit is not what this suite tests
    const abuseLimits = { ...testConfig().abuseLimits, agentUploadsPerMinute: 10_000 };
    fx = await startSecurityGateway({
      config: { adminTrustedNetworks: ['127.0.0.0/8', '::1/128'], abuseLimits },
    });
    victim = (await fx.admin('victim app', 'POST', '/api/admin/apps', { name: 'Victim' })).body.streamId;
  });
  afterAll(() => fx.close());

  const planned: Array<[string, number]> = [
    ['POST /api/admin/apps', 25],
    ['GET of app, agent, channel, settings, skill groups, suite and table', 25],
    ['DELETE /api/admin/apps/:streamId', 15],
    ['POST /api/admin/apps/:streamId/api-apps', 20],
    ['POST /api/admin/api-keys', 20],
    ['PUT /api/admin/apps/:streamId/agent', 20],
    ['PUT /api/admin/apps/:streamId/channels/ivr', 15],
    ['PUT /api/admin/apps/:streamId/ivr-settings', 30],
    ['PATCH /api/admin/apps/:streamId/ivr-settings', 20],
    ['GET and DELETE /api/admin/apps/:streamId/ivr-sandbox/lockouts', 10],
    ['PUT /api/admin/apps/:streamId/ivr-sandbox', 15],
    ['PUT /api/admin/tables/:tableName', 25],
    ['PUT /api/admin/apps/:streamId/testsuites/:name', 20],
    ['GET /healthz, /readyz, /openapi.json, /metrics', 15],
  ];
  for (const [name, runs] of planned) {
    it(`when ${name} gets hostile bodies, paths and tokens (numRuns=${runs}), then it never answers 5xx and its 4xx answers keep the error shape`, async () => {
      const entry = operatorTargets(fx, victim).find((t) => t.target.name === name);
      expect(entry?.runs).toBe(runs);
      await fuzzTarget(fx.gw.url, entry!.target, runs, fx.gw.docs);
    });
  }

  it(`when operator-typed texts are hostile (settings, prompts, training utterances; numRuns=${TEXT_RUNS}), then the caller's documents are still valid VoiceXML`, async () => {
    // the fuzzed PUTs above created the channel already: its secret is shown again only by a rotation
    expect(
      (await fx.admin('victim channel', 'PUT', `/api/admin/apps/${victim}/channels/ivr`, { enabled: true }))
        .status,
    ).toBe(200);
    const ch = await fx.admin(
      'victim channel secret',
      'POST',
      `/api/admin/apps/${victim}/channels/ivr/rotate-secret`,
    );
    expect(ch.status).toBe(200);
    const token = signHs256({ appId: ch.body.clientId }, ch.body.clientSecret);
    const webhook = `${fx.gw.url}/ivr/hooks/${victim}?token=${encodeURIComponent(token)}`;
    const text = hostileString.map((s) => s.slice(0, 900));
    let accepted = 0;
    const prop = fc.asyncProperty(
      fc.array(text, { minLength: 6, maxLength: 6 }),
      fc.uuid(),
      async (t, id) => {
        const settings = {
          ...settingsBody,
          onExceedingRetries: { action: 'terminationHandler' },
          welcomeMessage: t[0],
          confidenceKey: t[1]!.slice(0, 80),
          standardResponses: { noInput: t[1], noMatch: t[2], error: t[3], goodbye: t[4], hold: t[5] },
        };
        const agent = structuredClone(echoAgentDefinition);
        agent.dialogs.welcome.nodes.hi.text = t[0]!;
        agent.dialogs.name.nodes.ask.prompt = t[2]!;
        agent.dialogs.echo.nodes.back.text = `${t[3]} {{session.BotUserSession.lastMessage.text}}`;
        agent.intents[0]!.utterances = [...agent.intents[0]!.utterances, t[4]!];
        const s = await fx.admin(
          'hostile settings',
          'PUT',
          `/api/admin/apps/${victim}/ivr-settings`,
          settings,
        );
        const a = await fx.admin('hostile agent', 'PUT', `/api/admin/apps/${victim}/agent`, agent);
        for (const r of [s, a])
          if (r.status >= 500)
            throw new Error(
              `a ${r.status} for hostile operator text: ${JSON.stringify(r.body).slice(0, 300)}`,
            );
        if (s.status !== 200 || a.status !== 202) return;
        await waitUntilAgentTrained(
          (method, path, body) => fx.admin('agent status', method, path, body),
          victim,
        );
        accepted++;
        const callId = `op-${id}`;
        const first = await fx.gw.submit(webhook, { callId, message: '', from: '+15550001111' });
        const turn = /<var name="turn" expr="'(\d+)'"/.exec(first.xml)?.[1] ?? '1';
        for (const message of ['take my name please', t[5]!]) {
          const r = await fx.gw.submit(webhook, {
            callId,
            message,
            turn: `${turn}.0`,
            confidence: '0.9',
            inputmode: 'voice',
          });
          if (r.status !== 200) throw new Error(`turn answered ${r.status}: ${r.xml.slice(0, 300)}`);
        }
        const noinput = await fx.gw.submit(webhook, { callId, event: 'noinput', turn });
        if (noinput.status >= 500) throw new Error(`noinput answered ${noinput.status}`);
      },
    );
    await checkProperty('hostile operator texts', TEXT_RUNS, prop);
    console.log(
      `[security] hostile operator texts: ${accepted} of ${TEXT_RUNS} settings+agent pairs accepted and called`,
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('when every VoiceXML answer of this suite is checked against vxml.xsd, then all are valid VoiceXML 2.1', async () => {
    await timed(
      `operator XSD validation of ${fx.gw.docs.docs.length} documents`,
      fx.gw.docs.docs.length,
      () => fx.gw.docs.validateAll(),
    );
  });

  it('when the runs are over, then Object.prototype and the other built-in prototypes are unpolluted', () => {
    expect(pollutionProblem(snapshot)).toBeNull();
  });
});
