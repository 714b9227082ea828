/**
 * Issue 38, finding 8, over real HTTP on the API stores (memory, Redis): /metrics answers only its token or its
 * networks; a grammar source (a node's grammar src, the transcription engine) or fetchaudio of
 * another scheme than http, https or builtin: is refused with 400 at the field's path and nothing
 * is stored; every answer that carries a secret is `Cache-Control: no-store`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoAgentWith } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  createModelConnection,
  importSkillGroup,
  startGateway,
  type RunningGateway,
} from '../helpers/test-gateway.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const HOSTILE_SOURCES = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'data:application/srgs+xml,<grammar/>',
  'file:///etc/passwd',
  'vbscript:x',
  '//evil.example/g.grxml',
  'grammars/menu.grxml',
];

describeEachStore('the edge: metrics, grammar sources, secrets in answers', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let streamId: string;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, config: { trustProxy: true, metricsToken: METRICS_TOKEN } });
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Edge' })).body.streamId as string;
    await importSkillGroup(gw, streamId, 'sg-reservations', 'Reservations');
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when /metrics is asked from another address without the token, then 401 and no metric; with the token or from loopback, then the metrics', async () => {
    const outside = await fetch(`${gw.url}/metrics`, { headers: { 'X-Forwarded-For': '203.0.113.50' } });
    expect(outside.status).toBe(401);
    const text = await outside.text();
    expect(text).not.toContain('ivr_');
    expect(JSON.parse(text).errors[0]).toMatchObject({ path: 'headers.authorization' });
    expect(outside.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(
      (
        await fetch(`${gw.url}/metrics`, {
          headers: { 'X-Forwarded-For': '203.0.113.50', Authorization: 'Bearer not-the-metrics-token-00' },
        })
      ).status,
    ).toBe(401);
    // the admin token is not the metrics token
    expect(
      (
        await fetch(`${gw.url}/metrics`, {
          headers: { 'X-Forwarded-For': '203.0.113.50', Authorization: `Bearer ${gw.config.adminToken}` },
        })
      ).status,
    ).toBe(401);
    const withToken = await fetch(`${gw.url}/metrics`, {
      headers: { 'X-Forwarded-For': '203.0.113.50', Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toContain('ivr_turns_total');
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(200);
  });

  it('when a node grammar src is javascript:, data:, file: or relative, then the agent is refused with 400 at the src path', async () => {
    const connectionId = await createModelConnection(gw);
    for (const src of HOSTILE_SOURCES) {
      const agent = structuredClone(demoAgentWith(connectionId)) as {
        dialogs: Record<string, { nodes: Record<string, { ivr?: Record<string, unknown> }> }>;
      };
      agent.dialogs.book!.nodes.size!.ivr = {
        ...agent.dialogs.book!.nodes.size!.ivr,
        grammar: { mode: 'dtmf', src },
      };
      const r = await gw.admin('PUT', `/api/admin/apps/${streamId}/agent`, agent);
      expect(r.status, src).toBe(400);
      expect(JSON.stringify(r.body.errors), src).toContain('body.dialogs.book.nodes.size.ivr.grammar.src');
      expect(JSON.stringify(r.body.errors)).toContain('http or https URL or a builtin: grammar');
    }
    const ok = structuredClone(demoAgentWith(connectionId)) as {
      dialogs: Record<string, { nodes: Record<string, { ivr?: Record<string, unknown> }> }>;
    };
    ok.dialogs.book!.nodes.size!.ivr = {
      ...ok.dialogs.book!.nodes.size!.ivr,
      grammar: [
        { mode: 'dtmf', src: 'builtin:dtmf/digits?length=2' },
        { mode: 'voice', src: 'https://grammars.example.com/party.grxml' },
      ],
    };
    expect((await gw.admin('PUT', `/api/admin/apps/${streamId}/agent`, ok)).status).toBe(202);
  });

  it('when the transcription engine or fetchaudio is not an http(s) or builtin: source, then the settings are refused with 400 at its path and not stored', async () => {
    const before = (await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-settings`)).body;
    for (const src of HOSTILE_SOURCES) {
      const r = await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, {
        transcription: { enabled: true, engine: src },
      });
      expect(r.status, src).toBe(400);
      expect(r.body.errors.map((e: { path?: string }) => e.path)).toContain('body.transcription.engine');
    }
    const audio = await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, {
      vxmlProperties: { fetchaudio: 'javascript:alert(1)' },
    });
    expect(audio.status).toBe(400);
    expect(audio.body.errors.map((e: { path?: string }) => e.path)).toContain(
      'body.vxmlProperties.fetchaudio',
    );
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-settings`)).body).toEqual(before);
    expect(
      (
        await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, {
          transcription: { enabled: true, engine: 'builtin:speech/transcribe' },
          vxmlProperties: { fetchaudio: 'https://audio.example.com/hold.wav' },
        })
      ).status,
    ).toBe(200);
  });

  it('when an answer carries a secret (API app, API key, channel, rotation, minted token, sandbox, console credentials), then it is Cache-Control: no-store', async () => {
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${gw.url}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${gw.config.adminToken}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, cacheControl: res.headers.get('cache-control'), path };
    };
    const answers = [
      await admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
        name: 'reader',
        scopes: ['chat-history'],
      }),
      await admin('POST', '/api/admin/api-keys', { name: 'edge key', scopes: ['connections:view'] }),
      await admin('PUT', `/api/admin/apps/${streamId}/channels/ivr`, { enabled: true }),
      await admin('POST', `/api/admin/apps/${streamId}/channels/ivr/rotate-secret`),
      await admin('POST', `/api/admin/apps/${streamId}/channels/ivr/tokens`, { expiresInS: 3600 }),
      await admin('PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, { enabled: true }),
      await admin('POST', `/api/admin/apps/${streamId}/ivr-sandbox/rotate-secret`),
      await admin('POST', `/api/console/apps/${streamId}/token`),
      await admin('POST', '/api/console/api-key'),
    ];
    for (const a of answers) {
      expect(a.status, a.path).toBeLessThan(300);
      expect(a.cacheControl, a.path).toBe('no-store');
    }
  });
});
