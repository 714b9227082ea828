/**
 * A 401 names the credential it expected, without changing the platform's messages: the
 * `WWW-Authenticate` header (Bearer for the operator, the `auth` header's JWT, `x-api-key`, the
 * webhook's `token` query parameter) and the credential's place as the error entry's `path`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { signHs256 } from '../../src/platform/index.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';

describe('401 answers that name the credential they expect', () => {
  let gw: RunningGateway;
  let app: IvrApp;
  let historyToken: string;

  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(testPrefix()) });
    app = await setupIvrApp(gw);
    const client = (
      await gw.admin('POST', `/api/admin/apps/${app.streamId}/api-apps`, {
        name: 'tables only',
        scopes: ['tables'],
      })
    ).body;
    historyToken = signHs256({ appId: client.clientId, sub: 'u' }, client.clientSecret);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.url}${path}`, { headers });
  const refusal = async (res: Response) => ({
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    entry: ((await res.json()) as { errors: unknown[] }).errors,
  });

  it('when the operator API gets no or a wrong admin token, then 401 with a Bearer challenge and path headers.authorization', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer not-the-admin-token-at-all' },
      { Authorization: `Basic ${gw.config.adminToken}` },
    ];
    for (const headers of variants) {
      expect(await refusal(await get('/api/admin/apps', headers))).toEqual({
        status: 401,
        challenge: 'Bearer realm="operator"',
        entry: [{ msg: 'Invalid or missing admin token', code: 4002, path: 'headers.authorization' }],
      });
    }
  });

  it('when a JWT route gets no token or a malformed one, then 401 with the exact message, a challenge naming the auth header and path headers.auth', async () => {
    const path = `/api/public/bot/${app.streamId}/getMessages?channelType=ivr`;
    const challenge = 'JWT realm="api", header="auth"';
    expect(await refusal(await get(path))).toEqual({
      status: 401,
      challenge,
      entry: [{ msg: 'Invalid SDK credentials', code: 4002, path: 'headers.auth' }],
    });
    expect(await refusal(await get(path, { auth: 'not-a-jwt' }))).toEqual({
      status: 401,
      challenge,
      entry: [{ msg: 'Invalid JWT token', code: 4002, path: 'headers.auth' }],
    });
    // a valid token without the scope is a 403: nothing to challenge
    const forbidden = await get(path, { auth: historyToken });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toBeNull();
  });

  it('when an API-key route gets no key or an unknown one, then 401 with a challenge naming x-api-key and path headers.x-api-key', async () => {
    const variants: Array<Record<string, string>> = [{}, { 'x-api-key': 'ak-unknownkey-0123456789abcdef' }];
    for (const headers of variants) {
      expect(await refusal(await get('/api/public/connections', headers))).toEqual({
        status: 401,
        challenge: 'ApiKey realm="connections", header="x-api-key"',
        entry: [{ msg: 'Invalid SDK credentials', code: 4002, path: 'headers.x-api-key' }],
      });
    }
  });

  it('when the OpenAPI document is read, then every authenticated operation documents its 401 with the WWW-Authenticate header', async () => {
    const spec = (await (await get('/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { security: unknown[]; responses: Record<string, { headers?: Record<string, unknown> }> }
        >
      >;
    };
    const ops = Object.entries(spec.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ name: `${method} ${path}`, op })),
    );
    const guarded = ops.filter(({ op }) => op.security.length > 0);
    expect(guarded.length).toBeGreaterThan(20);
    expect(
      guarded.filter(({ op }) => !op.responses['401']?.headers?.['WWW-Authenticate']).map(({ name }) => name),
    ).toEqual([]);
  });

  it('when the webhook gets no token or a forged one, then a 401 VoiceXML document with a challenge naming the token query parameter', async () => {
    const forged = signHs256({ appId: app.clientId }, 'not-the-channel-secret');
    for (const url of [
      `${gw.url}/ivr/hooks/${app.streamId}`,
      `${gw.url}/ivr/hooks/${app.streamId}?token=${forged}`,
    ]) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'callId=c-1&message=',
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/voicexml+xml');
      expect(res.headers.get('www-authenticate')).toBe('JWT realm="ivr-webhook", query="token"');
      gw.docs.add(await res.text());
    }
    const ok = await gw.submit(app.webhookUrl, { callId: 'c-ok', message: '' });
    expect(ok.status).toBe(200);
  });
});
