/**
 * The Host header (and, from a trusted proxy, X-Forwarded-Host/-Proto) is checked before a URL is
 * built from it: malformed → 400 in the route's own error format, another host than
 * PUBLIC_BASE_URL's → 400, while health and readiness probes answer whatever Host they carry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { send } from '../security/raw-http.js';

const MALFORMED = [
  'exa mple.com',
  'a/b',
  'host:99999',
  '[::1',
  'user@host',
  'host:80:81',
  '1.2.3.4.5',
  'bad%host',
];
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('the Host header, without PUBLIC_BASE_URL', () => {
  const store = new MemoryStore('host-guard:');
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    gw = await startGateway({ store, config: { trustProxy: ['127.0.0.2'] } });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const hookPath = () => new URL(app.webhookUrl).pathname + new URL(app.webhookUrl).search;

  it('when a webhook request carries a malformed Host, then 400 with a VoiceXML error document, and no stack in the log', async () => {
    for (const host of MALFORMED) {
      const r = await send(gw.url, {
        method: 'POST',
        path: hookPath(),
        headers: { ...form, Host: host },
        body: 'callId=c-host&message=',
      });
      expect(r.status, host).toBe(400);
      expect(r.contentType).toContain('application/voicexml+xml');
      gw.docs.add(r.text);
    }
    expect(gw.log.text()).not.toMatch(/TypeError|Invalid URL|turn failed/);
    // the call was never started
    expect(await gw.gateway.sessions.load(app.streamId, 'c-host')).toBeNull();
  });

  it('when an operator request carries a malformed Host, then 400 in the error shape and the channel is not touched', async () => {
    const fresh = await gw.admin('POST', '/api/admin/apps', { name: 'Host test' });
    const streamId = fresh.body.streamId as string;
    const r = await send(gw.url, {
      method: 'PUT',
      path: `/api/admin/apps/${streamId}/channels/ivr`,
      headers: {
        Host: 'exa mple.com',
        Authorization: `Bearer ${gw.config.adminToken}`,
        'Content-Type': 'application/json',
      },
      body: '{"enabled":true}',
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).errors[0]).toMatchObject({ code: 'bad_request', path: 'headers.host' });
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/channels/ivr`)).body).toEqual({
      enabled: false,
    });
  });

  it('when a well-formed Host is sent, then the URLs are built from it (names, IPv4, IPv6, ports)', async () => {
    const fresh = await gw.admin('POST', '/api/admin/apps', { name: 'Host names' });
    const streamId = fresh.body.streamId as string;
    for (const host of [
      'ivr.example.com',
      'IVR.Example.com:8443',
      '10.1.2.3:3000',
      '[::1]:3000',
      'gateway_1.internal',
    ]) {
      const r = await send(gw.url, {
        method: 'GET',
        path: `/api/admin/apps/${streamId}/channels/ivr`,
        headers: { Host: host, Authorization: `Bearer ${gw.config.adminToken}` },
      });
      expect(r.status, host).toBe(200);
    }
    const ch = await send(gw.url, {
      method: 'PUT',
      path: `/api/admin/apps/${streamId}/channels/ivr`,
      headers: {
        Host: 'ivr.example.com:8443',
        Authorization: `Bearer ${gw.config.adminToken}`,
        'Content-Type': 'application/json',
      },
      body: '{"enabled":true}',
    });
    expect(JSON.parse(ch.text).webhookUrl).toBe(`http://ivr.example.com:8443/ivr/hooks/${streamId}`);
  });

  it('when X-Forwarded-Host or -Proto come from the trusted proxy, then they are checked too; from anyone else they are ignored', async () => {
    const path = `/api/admin/apps/${app.streamId}/channels/ivr`;
    const auth = { Authorization: `Bearer ${gw.config.adminToken}` };
    const viaProxy = (headers: Record<string, string>) =>
      send(gw.url, { method: 'GET', path, headers: { ...auth, ...headers }, localAddress: '127.0.0.2' });
    expect((await viaProxy({ 'X-Forwarded-Host': 'a b' })).status).toBe(400);
    expect((await viaProxy({ 'X-Forwarded-Proto': 'javascript' })).status).toBe(400);
    const good = await viaProxy({ 'X-Forwarded-Host': 'ivr.example.com', 'X-Forwarded-Proto': 'https' });
    expect(JSON.parse(good.text).webhookUrl).toBe(`https://ivr.example.com/ivr/hooks/${app.streamId}`);
    const untrusted = await send(gw.url, {
      method: 'GET',
      path,
      headers: { ...auth, 'X-Forwarded-Host': 'a b', 'X-Forwarded-Proto': 'javascript' },
      localAddress: '127.0.0.3',
    });
    expect(untrusted.status).toBe(200);
    expect(JSON.parse(untrusted.text).webhookUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ivr\/hooks\//);
  });
});

describe('the Host header, with PUBLIC_BASE_URL', () => {
  const store = new MemoryStore('host-guard-public:');
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    // set up through an instance without PUBLIC_BASE_URL on the same store, then serve with it
    const setup = await startGateway({ store });
    app = await setupIvrApp(setup);
    await setup.close();
    gw = await startGateway({
      store,
      config: { publicBaseUrl: 'https://ivr.example.com', masterKey: setup.config.masterKey },
    });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when the Host is another host, then 400; the public host (any case, any port) passes', async () => {
    const path = `/api/admin/apps/${app.streamId}/channels/ivr`;
    const auth = { Authorization: `Bearer ${gw.config.adminToken}` };
    const other = await send(gw.url, { method: 'GET', path, headers: { ...auth, Host: 'attacker.example' } });
    expect(other.status).toBe(400);
    expect(JSON.parse(other.text).errors[0].path).toBe('headers.host');
    for (const host of ['ivr.example.com', 'IVR.EXAMPLE.COM:443']) {
      const r = await send(gw.url, { method: 'GET', path, headers: { ...auth, Host: host } });
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.text).webhookUrl).toBe(`https://ivr.example.com/ivr/hooks/${app.streamId}`);
    }
    const hook = new URL(app.webhookUrl);
    const refused = await send(gw.url, {
      method: 'POST',
      path: hook.pathname + hook.search,
      headers: { ...form, Host: 'attacker.example' },
      body: 'callId=c-public&message=',
    });
    expect(refused.status).toBe(400);
    gw.docs.add(refused.text);
    const served = await send(gw.url, {
      method: 'POST',
      path: hook.pathname + hook.search,
      headers: { ...form, Host: 'ivr.example.com' },
      body: 'callId=c-public&message=',
    });
    expect(served.status).toBe(200);
    expect(served.text).toContain('https://ivr.example.com/ivr/hooks/');
    gw.docs.add(served.text);
  });

  it('when a probe asks /healthz or /readyz with any Host, then it answers', async () => {
    for (const path of ['/healthz', '/readyz']) {
      expect((await send(gw.url, { method: 'GET', path, headers: { Host: '10.0.0.7:3000' } })).status).toBe(
        200,
      );
    }
  });
});
