import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { defineRoute, signHs256 } from '../../src/platform/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const store = new MemoryStore('auth:');
let t: TestApp;
let client: Awaited<ReturnType<TestApp['createAppWithClient']>>;
let other: Awaited<ReturnType<TestApp['createAppWithClient']>>;

beforeAll(async () => {
  t = buildTestApp({
    store,
    routes: () => [
      defineRoute({
        method: 'get',
        path: '/t/bot/:botId/history',
        summary: 'jwt',
        tags: ['t'],
        auth: { kind: 'jwt', scope: 'chat-history', appParam: 'botId' },
        params: z.object({ botId: z.string() }),
        responses: {},
        handler: async ({ principal }) => ({ json: principal }),
      }),
      defineRoute({
        method: 'get',
        path: '/t/conns',
        summary: 'key',
        tags: ['t'],
        auth: { kind: 'apiKey', scope: 'connections:view' },
        responses: {},
        handler: async ({ principal }) => ({ json: principal }),
      }),
    ],
  });
  client = await t.createAppWithClient(['chat-history']);
  other = await t.createAppWithClient(['chat-history']);
});
afterAll(() => store.close());

const path = () => `/t/bot/${client.streamId}/history`;

describe('the auth header JWT', () => {
  it('when the token is valid for the app in the path, then the request passes', async () => {
    const r = await request(t.app).get(path()).set('auth', client.token()).expect(200);
    expect(r.body).toMatchObject({ kind: 'app', streamId: client.streamId, sub: 'u-tester' });
  });

  it('when the header is missing, then 401 Invalid SDK credentials', async () => {
    const r = await request(t.app).get(path()).expect(401);
    expect(r.body.errors[0]).toEqual({ msg: 'Invalid SDK credentials', code: 4002, path: 'headers.auth' });
  });

  it('when alg is none, then 401 Invalid JWT token', async () => {
    const none = jwt.sign({ appId: client.clientId }, '', { algorithm: 'none' });
    const r = await request(t.app).get(path()).set('auth', none).expect(401);
    expect(r.body.errors[0].msg).toBe('Invalid JWT token');
  });

  it('when the token is HS512, then 401', async () => {
    const hs512 = jwt.sign({ appId: client.clientId }, client.clientSecret, { algorithm: 'HS512' });
    await request(t.app).get(path()).set('auth', hs512).expect(401);
  });

  it('when the token is signed with a wrong secret, then 401', async () => {
    await request(t.app)
      .get(path())
      .set('auth', signHs256({ appId: client.clientId }, 'wrong-secret'))
      .expect(401);
  });

  it('when the token is expired, then 401', async () => {
    const expired = jwt.sign(
      { appId: client.clientId, exp: Math.floor(Date.now() / 1000) - 60 },
      client.clientSecret,
      { algorithm: 'HS256' },
    );
    await request(t.app).get(path()).set('auth', expired).expect(401);
  });

  it('when the token is not yet valid, then 401', async () => {
    const future = jwt.sign(
      { appId: client.clientId, nbf: Math.floor(Date.now() / 1000) + 3600 },
      client.clientSecret,
      { algorithm: 'HS256' },
    );
    await request(t.app).get(path()).set('auth', future).expect(401);
  });

  it("when the token is another app's, then 401", async () => {
    await request(t.app).get(path()).set('auth', other.token()).expect(401);
  });

  it('when appId is missing, then 401', async () => {
    const noApp = jwt.sign({ sub: 'x' }, client.clientSecret, { algorithm: 'HS256' });
    await request(t.app).get(path()).set('auth', noApp).expect(401);
  });

  it('when the app lacks the scope, then 403 Permission denied', async () => {
    const noScope = await t.createAppWithClient(['tables']);
    const r = await request(t.app)
      .get(`/t/bot/${noScope.streamId}/history`)
      .set('auth', noScope.token())
      .expect(403);
    expect(r.body.errors[0].msg).toBe('Permission denied. Scope is incorrect!');
  });

  it('when the token is an RS256 token (algorithm confusion), then 401', async () => {
    const [h, p] = [
      Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify({ appId: client.clientId })).toString('base64url'),
    ];
    await request(t.app).get(path()).set('auth', `${h}.${p}.sig`).expect(401);
  });
});

describe('API keys', () => {
  it('when the key has the scope, then the request passes', async () => {
    const key = await t.createApiKey(['connections:view']);
    const r = await request(t.app).get('/t/conns').set('x-api-key', key).expect(200);
    expect(r.body.kind).toBe('apiKey');
  });

  it('when the key lacks the scope, then 403', async () => {
    const key = await t.createApiKey(['connections:manage']);
    await request(t.app).get('/t/conns').set('x-api-key', key).expect(403);
  });

  it('when keys are guessed repeatedly, then the guesser is rate-limited with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await request(t.app).get('/t/conns').set('x-api-key', `ak-guess-${i}`);
      statuses.push(r.status);
      if (r.status === 429) {
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        break;
      }
    }
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
  });

  it('when keys are stored, then only their hash is in the store', async () => {
    const key = await t.createApiKey(['connections:view']);
    const dump = JSON.stringify(await store.mget([key]));
    expect(dump).not.toContain(key.slice(3));
  });
});
