/**
 * The credentials the operator console calls the public APIs with, over real HTTP on the API stores (memory, Redis):
 * one API app per app named "Operator console", made on first use and reused by every request and
 * instance (it does not pile up), listed with the app's API apps; tokens signed with it that the
 * public APIs accept; a new one after it is deleted; one API key, reused; and the refusals (no
 * session, another site, an unknown app).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeKeys, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

describeEachStore('operator console credentials', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let other: RunningGateway;
  let cookie = '';

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    // another instance of the same deployment (the same master key opens the secrets)
    other = await startGateway({ store, config: { masterKey: gw.config.masterKey } });
    const res = await fetch(`${gw.url}/api/console/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: gw.url },
      body: JSON.stringify({ token: gw.config.adminToken }),
    });
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await gw.close();
    await other.close();
    await store.close();
  });

  /** A console request: the session cookie, from the console's own origin. */
  const asConsole = (path: string, base = gw.url) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { Cookie: cookie, Origin: base } });
  const tokenOf = async (streamId: string, base = gw.url) => {
    const res = await asConsole(`/api/console/apps/${streamId}/token`, base);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return (await res.json()) as { token: string; clientId: string; expiresAt: string };
  };
  const apiAppsOf = async (streamId: string) =>
    (await gw.admin('GET', `/api/admin/apps/${streamId}/api-apps`)).body.apiApps as Array<{
      clientId: string;
      name: string;
      scopes: string[];
    }>;
  const history = (streamId: string, token: string) =>
    fetch(`${gw.url}/api/public/bot/${streamId}/getMessages?userId=someone`, { headers: { auth: token } });
  const newApp = async (name: string): Promise<string> =>
    (await gw.admin('POST', '/api/admin/apps', { name })).body.streamId as string;

  it('when the console asks for tokens of an app again and again, on two instances, then one API app named "Operator console" signs them all and the public APIs accept them', async () => {
    const streamId = await newApp('Front desk');
    const answers = await Promise.all([tokenOf(streamId), tokenOf(streamId), tokenOf(streamId, other.url)]);
    answers.push(await tokenOf(streamId));
    expect(new Set(answers.map((a) => a.clientId)).size).toBe(1);
    const listed = await apiAppsOf(streamId);
    expect(listed).toEqual([
      {
        clientId: answers[0].clientId,
        name: 'Operator console',
        scopes: ['chat-history', 'batch-tests', 'assist-import-export', 'tables'],
        createdOn: expect.any(String),
      },
    ]);
    const lifetime = Date.parse(answers[0].expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(300_000);
    for (const a of answers) expect((await history(streamId, a.token)).status).toBe(200);
    // its secret is in no answer: a token is all the console gets
    expect(JSON.stringify(answers)).not.toMatch(/secret/i);
  });

  it("when the operator deletes the console's API app, then its tokens are refused and the next request makes one new API app", async () => {
    const streamId = await newApp('Rotated');
    const before = await tokenOf(streamId);
    expect((await gw.admin('DELETE', `/api/admin/apps/${streamId}/api-apps/${before.clientId}`)).status).toBe(
      204,
    );
    expect((await history(streamId, before.token)).status).toBe(401);
    const [after, again] = await Promise.all([tokenOf(streamId), tokenOf(streamId, other.url)]);
    expect(after.clientId).not.toBe(before.clientId);
    expect(again.clientId).toBe(after.clientId);
    expect((await apiAppsOf(streamId)).map((a) => a.clientId)).toEqual([after.clientId]);
    expect((await history(streamId, after.token)).status).toBe(200);
  });

  it("when the app is deleted, then the console's API app goes with it", async () => {
    const streamId = await newApp('Gone');
    const { clientId } = await tokenOf(streamId);
    expect((await gw.admin('DELETE', `/api/admin/apps/${streamId}`)).status).toBe(204);
    expect(await store.hgetall(storeKeys.apiApp(clientId))).toEqual({});
    expect(await store.get(storeKeys.consoleApiApp(streamId))).toBeNull();
    expect((await asConsole(`/api/console/apps/${streamId}/token`)).status).toBe(404);
  });

  it('when the console asks for the API key again, on two instances, then it gets the same one, which the connections API accepts', async () => {
    const keys = await Promise.all(
      [asConsole('/api/console/api-key'), asConsole('/api/console/api-key', other.url)].map(async (p) => {
        const res = await p;
        expect(res.status).toBe(201);
        return ((await res.json()) as { apiKey: string }).apiKey;
      }),
    );
    const later = ((await (await asConsole('/api/console/api-key')).json()) as { apiKey: string }).apiKey;
    expect(later).toMatch(/^ak-/);
    expect(new Set([...keys, later]).size).toBe(1);
    expect(
      (await fetch(`${gw.url}/api/public/connections?limit=1`, { headers: { 'x-api-key': later } })).status,
    ).toBe(200);
  });

  it('when the request has no session, comes from another site, or names an unknown or malformed app, then it is refused and nothing is made', async () => {
    const streamId = await newApp('Guarded');
    expect((await fetch(`${gw.url}/api/console/apps/${streamId}/token`, { method: 'POST' })).status).toBe(
      401,
    );
    expect((await fetch(`${gw.url}/api/console/api-key`, { method: 'POST' })).status).toBe(401);
    const crossSite = await fetch(`${gw.url}/api/console/apps/${streamId}/token`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(await apiAppsOf(streamId)).toEqual([]);
    expect((await asConsole('/api/console/apps/st-00000000-0000-4000-8000-000000000000/token')).status).toBe(
      404,
    );
    expect((await asConsole('/api/console/apps/not-an-app/token')).status).toBe(400);
  });
});
