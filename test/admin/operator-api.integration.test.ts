import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  createModelConnection,
  importSkillGroup,
  startGateway,
  type RunningGateway,
} from '../helpers/test-gateway.js';
import { demoAgentDefinition, demoAgentWith } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';

describeEachStore('operator API', 'api', (factory) => {
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

  it('when an app is created, listed, read and deleted, then each answer has the contract shape', async () => {
    const created = await gw.admin('POST', '/api/admin/apps', { name: 'Front desk', language: 'en' });
    expect(created.status).toBe(201);
    expect(created.body.streamId).toMatch(/^st-[0-9a-f-]{36}$/);
    expect(created.body.createdOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = await gw.admin('GET', '/api/admin/apps');
    expect(list.body.apps.map((a: { streamId: string }) => a.streamId)).toContain(created.body.streamId);
    expect((await gw.admin('GET', `/api/admin/apps/${created.body.streamId}`)).body.name).toBe('Front desk');
    expect((await gw.admin('DELETE', `/api/admin/apps/${created.body.streamId}`)).status).toBe(204);
    expect((await gw.admin('GET', `/api/admin/apps/${created.body.streamId}`)).status).toBe(404);
  });

  it('when an API app and an API key are created, then the secrets are shown once with their ids', async () => {
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'A' });
    const client = await gw.admin('POST', `/api/admin/apps/${app.body.streamId}/api-apps`, {
      name: 'reporting',
      scopes: ['chat-history', 'batch-tests'],
    });
    expect(client.status).toBe(201);
    expect(client.body.clientId).toMatch(/^cs-[0-9a-f-]{36}$/);
    expect(client.body.clientSecret.length).toBeGreaterThan(30);
    const key = await gw.admin('POST', '/api/admin/api-keys', { name: 'ops', scopes: ['connections:view'] });
    expect(key.status).toBe(201);
    expect(key.body.apiKey).toMatch(/^ak-/);
    const bad = await gw.admin('POST', '/api/admin/api-keys', { name: 'ops', scopes: ['everything'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('body.scopes.0');
  });

  it('when an agent definition has several problems, then 400 lists each with its JSON path', async () => {
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'B' });
    const broken = structuredClone(demoAgentDefinition) as any;
    broken.intents[0].utterances = [];
    broken.dialogs.book.nodes.size.next[1].goto = 'nowhere';
    broken.dialogs.book.nodes.bogus = { type: 'teleport' };
    broken.dialogs.book.nodes.confirm.next[0].when = 'context.entities.confirmed ==';
    const r = await gw.admin('PUT', `/api/admin/apps/${app.body.streamId}/agent`, broken);
    expect(r.status).toBe(400);
    const paths: string[] = r.body.errors.map((e: { path: string }) => e.path);
    expect(paths.some((p) => p.includes('intents') && p.includes('utterances'))).toBe(true);
    expect(paths.some((p) => p.includes('size.next'))).toBe(true);
    expect(paths.some((p) => p.includes('bogus'))).toBe(true);
    expect(paths.some((p) => p.includes('confirm.next'))).toBe(true);
  });

  it('when a valid agent is stored, then GET answers it and the IVR settings validate their ranges', async () => {
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'C' });
    const id = app.body.streamId;
    const missing = await gw.admin('PUT', `/api/admin/apps/${id}/agent`, demoAgentDefinition);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.dialogs.ask.nodes.answer.connectionId',
      'body.dialogs.human.nodes.transfer.skillGroupId',
    ]);
    await importSkillGroup(gw, id, 'sg-reservations', 'Reservations');
    expect(
      (await gw.admin('PUT', `/api/admin/apps/${id}/agent`, demoAgentWith(await createModelConnection(gw))))
        .status,
    ).toBe(202);
    expect((await gw.admin('GET', `/api/admin/apps/${id}/agent`)).body.welcomeDialog).toBe('welcome');
    const bad = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      retries: 11,
      confidenceThreshold: 101,
      vxmlProperties: { timeout: '90s' },
    });
    expect(bad.status).toBe(400);
    const paths = bad.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(['body.retries', 'body.confidenceThreshold', 'body.vxmlProperties.timeout']),
    );
    const ok = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      retries: 2,
      confidenceThreshold: 40,
    });
    expect(ok.body).toMatchObject({ retries: 2, confidenceThreshold: 40, dialect: 'w3c' });
    const ch = await gw.admin('PUT', `/api/admin/apps/${id}/channels/ivr`, { enabled: true });
    expect(ch.body).toMatchObject({ enabled: true, webhookUrl: `${gw.url}/ivr/hooks/${id}` });
    expect(ch.body.clientId).toMatch(/^cs-/);
  });

  it('when the IVR settings are PUT with a null or non-object body, then 400 and the stored settings stay', async () => {
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'Settings body' });
    const id = app.body.streamId as string;
    const stored = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      retries: 2,
      confidenceThreshold: 40,
      welcomeMessage: 'Hello there',
    });
    expect(stored.status).toBe(200);
    for (const body of [null, [], 'reset', 5, true]) {
      const r = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ code: 'validation_error', path: 'body' });
    }
    expect((await gw.admin('GET', `/api/admin/apps/${id}/ivr-settings`)).body).toEqual(stored.body);
  });

  it('when the OpenAPI document is read, then it lists the operator, IVR and public routes', async () => {
    const spec = (await (await fetch(`${gw.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const p of [
      '/api/admin/apps',
      '/api/admin/apps/{streamId}/agent',
      '/ivr/hooks/{streamId}',
      '/api/public/connections',
      '/api/public/tables/{tableName}',
    ]) {
      expect(Object.keys(spec.paths)).toContain(p);
    }
  });
});
