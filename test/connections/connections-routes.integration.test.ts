import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createConnectionsComponent } from '../../src/connections/index.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  ALL_SECRETS,
  HEADER_SECRET,
  KEY_A,
  KEY_C,
  apiDefaultBody,
  apiExistingBody,
  hostedABody,
  hostedBBody,
  hostedCBody,
} from './connection-fixtures.js';

const BASE = '/api/public/connections';
const PUBLIC_URL = 'https://models.example.com/v1/chat/completions';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^cn-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STARS = '*'.repeat(15);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachStore('model connections API', 'api', (factory) => {
  let store: Store;
  let t: TestApp;
  let key: string;
  let viewKey: string;
  let manageKey: string;
  /** Every response body of this suite, searched for raw secrets at the end. */
  const seen: string[] = [];
  /** Runs a request, expects its status and keeps its body for the final secret search. */
  const wrap = (req: request.Test) => ({
    expect: async (status: number) => {
      const r = await req.expect(status);
      seen.push(r.text);
      return r;
    },
  });
  const post = (body: unknown, k = key) =>
    wrap(
      request(t.app)
        .post(BASE)
        .set('x-api-key', k)
        .send(body as object),
    );
  const get = (path: string, k = key) => wrap(request(t.app).get(path).set('x-api-key', k));
  const patch = (id: string, body: unknown, k = key) =>
    wrap(
      request(t.app)
        .patch(`${BASE}/${id}`)
        .set('x-api-key', k)
        .send(body as object),
    );
  const paths = (r: { body: { errors: Array<{ path?: string }> } }) => r.body.errors.map((e) => e.path);

  beforeAll(async () => {
    store = await factory.make();
    t = buildTestApp({ store, routes: (deps) => createConnectionsComponent(deps).routes });
    key = await t.createApiKey(['connections:view', 'connections:manage']);
    viewKey = await t.createApiKey(['connections:view']);
    manageKey = await t.createApiKey(['connections:manage']);
  });
  afterAll(() => store.close());

  describe('create', () => {
    it('when a HostedModelA connection is created, then 201 with an id, ACTIVE, createdOn and the key masked 2+4', async () => {
      const r = await post(hostedABody()).expect(201);
      expect(r.body).toMatchObject({
        connectionName: 'Hosted A',
        provider: 'HostedModelA',
        model: 'model-a-mini',
        status: 'ACTIVE',
      });
      expect(r.body.connectionId).toMatch(ID);
      expect(r.body.createdOn).toMatch(ISO_MS);
      expect(r.body.modifiedOn).toBeUndefined();
      expect(r.body.fields).toEqual({ API_KEY: `sk${STARS}MQAA` });
    });

    it('when a HostedModelB connection is created, then its non-secret fields come back as given and the key masked', async () => {
      const r = await post(hostedBBody()).expect(201);
      expect(r.body).toMatchObject({
        provider: 'HostedModelB',
        model: 'model-b-4o',
        modelType: 'EASY_INTEGRATION',
        status: 'ACTIVE',
      });
      expect(r.body.fields).toEqual({
        API_KEY: `b-${STARS}WXYZ`,
        api_version: '2024-05-01-preview',
        your_resource_name: 'my-resource',
        deployment_id: 'dep-1',
      });
    });

    it('when a HostedModelC connection is created, then 201 with the key masked', async () => {
      const r = await post(hostedCBody()).expect(201);
      expect(r.body).toMatchObject({
        provider: 'HostedModelC',
        model: 'model-c-sonnet',
        status: 'ACTIVE',
        fields: { API_KEY: `sk${STARS}QRST` },
      });
    });

    it('when an API connection (default-provider variant) is created, then the credential header is masked and the rest kept', async () => {
      const r = await post(apiDefaultBody(PUBLIC_URL)).expect(201);
      expect(r.body).toMatchObject({
        provider: 'API',
        model: 'custom-1',
        status: 'ACTIVE',
        endpointUrl: PUBLIC_URL,
        outputPath: 'choices[0].message.content',
        isEnable: true,
      });
      expect(r.body.headers).toEqual([
        { key: 'Authorization', value: `Bearer sk${STARS}ZZYY` },
        { key: 'X-Team', value: 'voice' },
      ]);
      expect(r.body.payload.messages[1].content).toBe('Question: {{prompt}}');
      expect(r.body.promptVars[0].name).toBe('persona');
    });

    it('when an API connection has isEnable false, then its status is INACTIVE', async () => {
      const r = await post(
        apiDefaultBody(PUBLIC_URL, { isEnable: false, connectionName: 'Disabled' }),
      ).expect(201);
      expect(r.body.status).toBe('INACTIVE');
    });

    it('when an API connection (existing-provider variant) is created, then mapProvider and IOMappings are kept and the api-key header masked', async () => {
      const r = await post(apiExistingBody(PUBLIC_URL)).expect(201);
      expect(r.body).toMatchObject({
        provider: 'API',
        model: 'mapped-model',
        mapProvider: 'vendorCModel',
        IOMappings: ['textToText'],
        idp: 'none',
        bodyTab: 'providerReferences',
        status: 'ACTIVE',
      });
      expect(r.body.llmFeatures.structuredResponse).toBe(true);
      expect(r.body.headers).toEqual([{ key: 'api-key', value: `xk${STARS}KLMN` }]);
    });

    it('when an API connection gives fields BASE_URL, API_KEY and MODEL_NAME, then they are accepted and the key masked', async () => {
      const r = await post(
        apiDefaultBody(PUBLIC_URL, {
          fields: { BASE_URL: 'https://models.example.com', API_KEY: KEY_C, MODEL_NAME: 'custom-1' },
        }),
      ).expect(201);
      expect(r.body.fields).toEqual({
        BASE_URL: 'https://models.example.com',
        API_KEY: `sk${STARS}QRST`,
        MODEL_NAME: 'custom-1',
      });
    });

    it('when secrets are stored, then the store holds them sealed, never in clear', async () => {
      const r = await post(apiDefaultBody(PUBLIC_URL, { fields: { API_KEY: KEY_A } })).expect(201);
      const raw = (await store.get(storeKeys.connection(r.body.connectionId)))!;
      expect(raw).toContain('v1.');
      for (const s of [KEY_A, HEADER_SECRET]) expect(raw).not.toContain(s);
    });
  });

  describe('refusals', () => {
    it('when no API key is sent, then 401', async () => {
      const r = await request(t.app).get(BASE).expect(401);
      expect(r.body.errors[0]).toMatchObject({ msg: 'Invalid SDK credentials', code: 4002 });
      await request(t.app).post(BASE).send(hostedABody()).expect(401);
    });

    it('when the key lacks the scope, then 403 (view cannot create, manage cannot read)', async () => {
      const r = await post(hostedABody(), viewKey).expect(403);
      expect(r.body.errors[0].msg).toBe('Permission denied. Scope is incorrect!');
      await get(BASE, manageKey).expect(403);
      await patch('cn-x', { fields: { API_KEY: KEY_A } }, viewKey).expect(403);
    });

    it('when the body is not JSON, then 415', async () => {
      const r = await request(t.app)
        .post(BASE)
        .set('x-api-key', key)
        .set('Content-Type', 'text/plain')
        .send('provider=API')
        .expect(415);
      expect(r.body.errors[0].code).toBe('unsupported_media_type');
      await request(t.app)
        .patch(`${BASE}/cn-x`)
        .set('x-api-key', key)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('fields=1')
        .expect(415);
    });

    it('when HostedModelB members are missing or wrong, then one 400 names each with its path', async () => {
      const r = await post({
        provider: 'HostedModelB',
        connectionName: 'b',
        modelType: 'OTHER',
        fields: { api_version: 'May 2024' },
      }).expect(400);
      expect(paths(r)).toEqual(
        expect.arrayContaining([
          'body.model',
          'body.modelType',
          'body.fields.API_KEY',
          'body.fields.api_version',
          'body.fields.your_resource_name',
          'body.fields.deployment_id',
        ]),
      );
      expect(r.body.errors.every((e: { code: string }) => e.code === 'validation_error')).toBe(true);
    });

    it('when the provider is unknown or fields are missing, then 400 with their paths', async () => {
      expect(paths(await post({ provider: 'Other', connectionName: 'x' }).expect(400))).toContain(
        'body.provider',
      );
      expect(
        paths(await post({ provider: 'HostedModelA', connectionName: 'x', model: 'm' }).expect(400)),
      ).toContain('body.fields');
      expect(
        paths(
          await post({ provider: 'HostedModelC', connectionName: 'x', model: 'm', fields: {} }).expect(400),
        ),
      ).toEqual(expect.arrayContaining(['body.modelType', 'body.fields.API_KEY']));
    });

    it('when an API default-variant body is incomplete, then every problem is listed', async () => {
      const r = await post({
        provider: 'API',
        connectionName: 'c',
        endpointUrl: PUBLIC_URL,
        payload: { model: 'm', messages: [] },
        headers: [{ key: 'Host', value: 'x' }],
      }).expect(400);
      expect(paths(r)).toEqual(
        expect.arrayContaining([
          'body.payload.max_tokens',
          'body.payload.messages',
          'body.outputPath',
          'body.headers.0.key',
        ]),
      );
    });

    it('when an API existing-provider body is incomplete or mixes variants, then every problem is listed', async () => {
      const r = await post({
        provider: 'API',
        connectionName: 'c',
        endpointUrl: PUBLIC_URL,
        mapProvider: 'vendorXModel',
        payload: {},
        llmFeatures: { streaming: 'yes' },
      }).expect(400);
      expect(paths(r)).toEqual(
        expect.arrayContaining([
          'body.mapProvider',
          'body.IOMappings',
          'body.model',
          'body.payload',
          'body.llmFeatures.streaming',
        ]),
      );
    });

    it('when an output path carries a script expression, then 400 on that path', async () => {
      const r = await post(apiDefaultBody(PUBLIC_URL, { outputPath: '$..[?(@.x)]' })).expect(400);
      expect(paths(r)).toEqual(['body.outputPath']);
    });

    it.each([
      'http://127.0.0.1:8080/v1',
      'http://localhost:11434/api',
      'http://10.1.2.3/x',
      'http://172.20.0.5/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[fd12::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://2130706433/',
      'ftp://models.example.com/',
      'not a url',
    ])('when endpointUrl is %s, then 400 naming body.endpointUrl', async (url) => {
      const r = await post(apiDefaultBody(url)).expect(400);
      expect(paths(r)).toEqual(['body.endpointUrl']);
    });

    it('when the connection id is unknown, then 404 on get and patch', async () => {
      const r = await get(`${BASE}/cn-00000000-0000-0000-0000-000000000000`).expect(404);
      expect(r.body.errors[0].code).toBe('not_found');
      await patch('cn-00000000-0000-0000-0000-000000000000', { fields: { API_KEY: KEY_A } }).expect(404);
    });

    it.each([
      ['provider=Nope', 'query.provider'],
      ['status=DONE', 'query.status'],
      ['limit=0', 'query.limit'],
      ['limit=1001', 'query.limit'],
      ['limit=ten', 'query.limit'],
    ])('when the list filter is %s, then 400 naming %s', async (qs, path) => {
      const r = await get(`${BASE}?${qs}`).expect(400);
      expect(paths(r)).toEqual([path]);
    });
  });

  describe('read, list and update', () => {
    let aId: string;
    let bId: string;
    let apiId: string;

    beforeAll(async () => {
      aId = (await post({ ...hostedABody(), connectionName: 'read A' }).expect(201)).body.connectionId;
      await sleep(3);
      bId = (await post({ ...hostedBBody(), connectionName: 'read B' }).expect(201)).body.connectionId;
      await sleep(3);
      apiId = (await post({ ...apiDefaultBody(PUBLIC_URL), connectionName: 'read API' }).expect(201)).body
        .connectionId;
    });

    it('when a connection is read, then fields are masked with the first 3 characters and it has createdOn and modifiedOn', async () => {
      const r = await get(`${BASE}/${aId}`).expect(200);
      expect(r.body).toMatchObject({
        connectionId: aId,
        provider: 'HostedModelA',
        status: 'ACTIVE',
        fields: { API_KEY: `sk-${STARS}` },
      });
      expect(r.body.createdOn).toMatch(ISO_MS);
      expect(r.body.modifiedOn).toMatch(ISO_MS);
      const api = await get(`${BASE}/${apiId}`).expect(200);
      expect(api.body.headers[0]).toEqual({ key: 'Authorization', value: `Bearer sk-${STARS}` });
    });

    it('when connections are listed, then newest first, without fields, with the total', async () => {
      const r = await get(BASE).expect(200);
      expect(r.body.total).toBe(r.body.connections.length);
      const ids = r.body.connections.map((c: { connectionId: string }) => c.connectionId);
      expect(ids.indexOf(apiId)).toBeLessThan(ids.indexOf(bId));
      expect(ids.indexOf(bId)).toBeLessThan(ids.indexOf(aId));
      for (const c of r.body.connections) {
        expect(c.fields).toBeUndefined();
        expect(c.headers).toBeUndefined();
        expect(Object.keys(c).sort()).toEqual([
          'connectionId',
          'connectionName',
          'createdOn',
          'model',
          'modifiedOn',
          'provider',
          'status',
        ]);
      }
    });

    it('when the list is filtered and limited, then total counts every match before the limit', async () => {
      const all = await get(`${BASE}?provider=HostedModelA`).expect(200);
      expect(all.body.total).toBeGreaterThanOrEqual(2);
      expect(all.body.connections.every((c: { provider: string }) => c.provider === 'HostedModelA')).toBe(
        true,
      );
      const one = await get(`${BASE}?provider=HostedModelA&limit=1`).expect(200);
      expect(one.body.connections).toHaveLength(1);
      expect(one.body.total).toBe(all.body.total);
      const inactive = await get(`${BASE}?status=INACTIVE`).expect(200);
      expect(inactive.body.total).toBeGreaterThanOrEqual(1);
      expect(inactive.body.connections.every((c: { status: string }) => c.status === 'INACTIVE')).toBe(true);
      const limited = await get(`${BASE}?limit=2`).expect(200);
      expect(limited.body.connections).toHaveLength(2);
      expect(limited.body.total).toBeGreaterThan(2);
    });

    it('when the key of a hosted connection is patched, then the answer has modifiedOn (no createdOn) and the new key masked', async () => {
      const before = (await get(`${BASE}/${aId}`).expect(200)).body;
      await sleep(3);
      const newKey = 'sk-new-0000111122223333444455NEWK';
      const r = await patch(aId, { fields: { API_KEY: newKey } }).expect(200);
      expect(r.body).toMatchObject({
        connectionId: aId,
        connectionName: 'read A',
        provider: 'HostedModelA',
        model: 'model-a-mini',
        status: 'ACTIVE',
      });
      expect(r.body.fields).toEqual({ API_KEY: `sk${STARS}NEWK` });
      expect(r.body.createdOn).toBeUndefined();
      expect(r.body.modifiedOn).toMatch(ISO_MS);
      expect(r.body.modifiedOn > before.modifiedOn).toBe(true);
      expect(r.text).not.toContain(newKey);
      const after = await get(`${BASE}/${aId}`).expect(200);
      expect(after.body.createdOn).toBe(before.createdOn);
    });

    it('when other members of a HostedModelB connection are patched, then they are validated and replaced', async () => {
      const bad = await patch(bId, { fields: { api_version: 'latest', deployment_id: '../x' } }).expect(400);
      expect(paths(bad)).toEqual(
        expect.arrayContaining(['body.fields.api_version', 'body.fields.deployment_id']),
      );
      const r = await patch(bId, { fields: { deployment_id: 'dep-2', api_version: '2024-10-21' } }).expect(
        200,
      );
      expect(r.body.fields).toEqual({
        API_KEY: `b-${STARS}WXYZ`,
        api_version: '2024-10-21',
        your_resource_name: 'my-resource',
        deployment_id: 'dep-2',
      });
    });

    it('when a patch has no fields, then 400', async () => {
      expect(paths(await patch(bId, {}).expect(400))).toEqual(['body.fields']);
      expect(paths(await patch(bId, { fields: {} }).expect(400))).toEqual(['body.fields']);
    });

    it('when an API connection is patched, then 422', async () => {
      const r = await patch(apiId, { fields: { API_KEY: KEY_A } }).expect(422);
      expect(r.body.errors[0].code).toBe('business_rule');
    });
  });

  it('when the suite is over, then no raw secret appeared in any answer or in the log', () => {
    const log = t.log.text();
    expect(log.length).toBeGreaterThan(0);
    for (const s of [...ALL_SECRETS, 'sk-new-0000111122223333444455NEWK']) {
      for (const body of seen) expect(body).not.toContain(s);
      expect(log).not.toContain(s);
    }
    expect(seen.length).toBeGreaterThan(20);
  });
});
