/**
 * API keys through the operator API, on the API stores (memory, Redis): listed without the key or its hash, deleted
 * one by one (a deleted key is refused at once, the others still work), and the refusals.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

describeEachStore('API keys', 'api', (factory) => {
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

  const connections = (apiKey: string) =>
    fetch(`${gw.url}/api/public/connections`, { headers: { 'x-api-key': apiKey } });

  it('when API keys are made, then they are listed oldest first with id, name, scopes and creation time, and neither the key nor its hash', async () => {
    const before = (await gw.admin('GET', '/api/admin/api-keys')).body.apiKeys.length;
    const a = (
      await gw.admin('POST', '/api/admin/api-keys', { name: 'Reporting', scopes: ['connections:view'] })
    ).body;
    const b = (
      await gw.admin('POST', '/api/admin/api-keys', {
        name: 'Deploy bot',
        scopes: ['connections:view', 'connections:manage'],
      })
    ).body;
    const r = await gw.admin('GET', '/api/admin/api-keys');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(before + 2);
    const mine = r.body.apiKeys.slice(-2);
    expect(mine).toEqual([
      {
        id: a.id,
        name: 'Reporting',
        scopes: ['connections:view'],
        createdOn: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      {
        id: b.id,
        name: 'Deploy bot',
        scopes: ['connections:view', 'connections:manage'],
        createdOn: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const text = JSON.stringify(r.body);
    expect(text.includes(a.apiKey)).toBe(false);
    expect(text.includes(b.apiKey)).toBe(false);
  });

  it('when an API key is deleted, then requests that send it are refused at once and the other keys still work', async () => {
    const gone = (
      await gw.admin('POST', '/api/admin/api-keys', { name: 'Leaked', scopes: ['connections:view'] })
    ).body;
    const kept = (
      await gw.admin('POST', '/api/admin/api-keys', { name: 'Kept', scopes: ['connections:view'] })
    ).body;
    expect((await connections(gone.apiKey)).status).toBe(200);
    expect((await gw.admin('DELETE', `/api/admin/api-keys/${gone.id}`)).status).toBe(204);
    expect((await connections(gone.apiKey)).status).toBe(401);
    expect((await connections(kept.apiKey)).status).toBe(200);
    const ids = (await gw.admin('GET', '/api/admin/api-keys')).body.apiKeys.map((k: { id: string }) => k.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(gone.id);
    expect((await gw.admin('DELETE', `/api/admin/api-keys/${gone.id}`)).status).toBe(404);
  });

  it('when the id is malformed or the admin token is missing, then the answer is 400 or 401 and nothing is deleted', async () => {
    const k = (await gw.admin('POST', '/api/admin/api-keys', { name: 'Safe', scopes: ['connections:view'] }))
      .body;
    expect((await gw.admin('DELETE', '/api/admin/api-keys/not-an-id')).status).toBe(400);
    expect((await fetch(`${gw.url}/api/admin/api-keys/${k.id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(`${gw.url}/api/admin/api-keys`)).status).toBe(401);
    expect((await connections(k.apiKey)).status).toBe(200);
  });
});
