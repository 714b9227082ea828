/**
 * An app's API apps through the operator API, on the API stores (memory, Redis): listed without their secrets,
 * deleted one by one (its tokens refused at once, the app's other API apps untouched), and the
 * refusals: another app's client id, a malformed one, an unknown app, no credentials.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signHs256 } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

describeEachStore('API apps of an app', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  const newApp = async (name: string): Promise<string> =>
    (await gw.admin('POST', '/api/admin/apps', { name })).body.streamId as string;
  const history = (streamId: string, clientId: string, secret: string) =>
    fetch(`${gw.url}/api/public/bot/${streamId}/getMessages?userId=someone`, {
      headers: { auth: signHs256({ appId: clientId, sub: 'test' }, secret, 60) },
    });

  it('when an app has API apps, then they are listed oldest first with name, client id, scopes and creation time, and no secret', async () => {
    const streamId = await newApp('Listed');
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/api-apps`)).body).toEqual({
      apiApps: [],
      total: 0,
    });
    const first = (
      await gw.admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
        name: 'reporting',
        scopes: ['chat-history'],
      })
    ).body;
    const second = (
      await gw.admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
        name: 'ci',
        scopes: ['batch-tests', 'tables'],
      })
    ).body;
    const list = await gw.admin('GET', `/api/admin/apps/${streamId}/api-apps`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    const when = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(list.body.apiApps).toHaveLength(2);
    expect(list.body.apiApps).toEqual(
      expect.arrayContaining([
        { clientId: first.clientId, name: 'reporting', scopes: ['chat-history'], createdOn: when },
        { clientId: second.clientId, name: 'ci', scopes: ['batch-tests', 'tables'], createdOn: when },
      ]),
    );
    // made one after the other (in the same millisecond, either may come first)
    const times = list.body.apiApps.map((a: { createdOn: string }) => a.createdOn);
    expect(times).toEqual([...times].sort());
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(first.clientSecret);
    expect(text).not.toContain(second.clientSecret);
  });

  it("when an API app is deleted, then it is no longer listed, its tokens are refused at once and the app's other API app still works", async () => {
    const streamId = await newApp('Deleting');
    const gone = (
      await gw.admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
        name: 'old',
        scopes: ['chat-history'],
      })
    ).body;
    const kept = (
      await gw.admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
        name: 'new',
        scopes: ['chat-history'],
      })
    ).body;
    expect((await history(streamId, gone.clientId, gone.clientSecret)).status).toBe(200);

    expect((await gw.admin('DELETE', `/api/admin/apps/${streamId}/api-apps/${gone.clientId}`)).status).toBe(
      204,
    );

    expect(
      (await gw.admin('GET', `/api/admin/apps/${streamId}/api-apps`)).body.apiApps.map(
        (a: { clientId: string }) => a.clientId,
      ),
    ).toEqual([kept.clientId]);
    expect((await history(streamId, gone.clientId, gone.clientSecret)).status).toBe(401);
    expect((await history(streamId, kept.clientId, kept.clientSecret)).status).toBe(200);
    const again = await gw.admin('DELETE', `/api/admin/apps/${streamId}/api-apps/${gone.clientId}`);
    expect(again.status).toBe(404);
    expect(again.body.errors[0]).toMatchObject({ code: 'not_found', msg: 'API app not found' });
  });

  it("when the client id is another app's, malformed, or the app is unknown, then the deletion is refused and nothing changes", async () => {
    const mine = await newApp('Mine');
    const theirs = await newApp('Theirs');
    const other = (
      await gw.admin('POST', `/api/admin/apps/${theirs}/api-apps`, { name: 'theirs', scopes: ['tables'] })
    ).body;
    expect((await gw.admin('DELETE', `/api/admin/apps/${mine}/api-apps/${other.clientId}`)).status).toBe(404);
    expect((await gw.admin('GET', `/api/admin/apps/${theirs}/api-apps`)).body.total).toBe(1);

    const malformed = await gw.admin('DELETE', `/api/admin/apps/${mine}/api-apps/not-a-client`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe('params.clientId');

    const unknown = 'st-00000000-0000-4000-8000-000000000000';
    expect((await gw.admin('GET', `/api/admin/apps/${unknown}/api-apps`)).status).toBe(404);
    expect((await gw.admin('DELETE', `/api/admin/apps/${unknown}/api-apps/${other.clientId}`)).status).toBe(
      404,
    );
    expect((await fetch(`${gw.url}/api/admin/apps/${theirs}/api-apps`)).status).toBe(401);
    expect(
      (await fetch(`${gw.url}/api/admin/apps/${theirs}/api-apps/${other.clientId}`, { method: 'DELETE' }))
        .status,
    ).toBe(401);
    expect((await gw.admin('GET', `/api/admin/apps/${theirs}/api-apps`)).body.total).toBe(1);
  });

  it('when the OpenAPI document is read, then both routes are there with their answers documented', async () => {
    const spec = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(
      Object.keys(spec.paths['/api/admin/apps/{streamId}/api-apps']?.get?.responses ?? {}).sort(),
    ).toEqual(['200', '401', '403', '404']);
    expect(
      Object.keys(
        spec.paths['/api/admin/apps/{streamId}/api-apps/{clientId}']?.delete?.responses ?? {},
      ).sort(),
    ).toEqual(['204', '400', '401', '403', '404']);
  });
});
