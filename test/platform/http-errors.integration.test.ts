import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { z } from 'zod';
import { AppError, defineRoute } from '../../src/platform/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const store = new MemoryStore('errors:');

beforeAll(() => {
  t = buildTestApp({
    store,
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/t/items',
        summary: 'test',
        tags: ['test'],
        auth: { kind: 'admin' },
        body: z.strictObject({ name: z.string().min(1), age: z.number().int().min(0) }),
        responses: { 201: { description: 'ok' } },
        handler: async ({ body }) => ({ status: 201, json: body }),
      }),
      defineRoute({
        method: 'get',
        path: '/t/boom',
        summary: 'test',
        tags: ['test'],
        auth: { kind: 'none' },
        responses: {},
        handler: async () => {
          throw new Error('secret internals: password=hunter2 at /srv/app.ts:42');
        },
      }),
      defineRoute({
        method: 'get',
        path: '/t/conflict',
        summary: 'test',
        tags: ['test'],
        auth: { kind: 'none' },
        responses: {},
        handler: async () => {
          throw AppError.conflict('already there', 'body.email');
        },
      }),
    ],
  });
});
afterAll(() => store.close());

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

describe('HTTP errors in the contract shape', () => {
  it('when a route is unknown, then 404 with the error shape and a request id', async () => {
    const r = await request(t.app).get('/nope').expect(404);
    expect(r.body.errors[0]).toMatchObject({ code: 'not_found' });
    expect(typeof r.body.requestId).toBe('string');
    expect(r.headers['x-request-id']).toBe(r.body.requestId);
  });

  it('when a path exists with another method, then 405 with Allow', async () => {
    const r = await request(t.app).delete('/t/items').set(admin).expect(405);
    expect(r.body.errors[0]).toMatchObject({ msg: 'Method Not Allowed', code: 'method_not_allowed' });
    expect(r.headers.allow).toContain('POST');
  });

  it.each(['/healthz', '/readyz', '/openapi.json', '/metrics'])(
    'when %s gets DELETE or POST, then 405 with Allow: GET, HEAD in the error shape',
    async (path) => {
      for (const send of [request(t.app).delete(path), request(t.app).post(path)]) {
        const r = await send.expect(405);
        expect(r.body.errors[0]).toMatchObject({ msg: 'Method Not Allowed', code: 'method_not_allowed' });
        expect(r.headers.allow).toBe('GET, HEAD');
      }
      await request(t.app)
        .get(path)
        .expect((res) => expect(res.status).not.toBe(405));
    },
  );

  it('when the body is over the limit, then 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1_100_000), age: 1 });
    const r = await request(t.app)
      .post('/t/items')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expect(r.body.errors[0].code).toBe('payload_too_large');
  });

  it('when the content type is not accepted, then 415', async () => {
    const r = await request(t.app)
      .post('/t/items')
      .set(admin)
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(415);
    expect(r.body.errors[0].code).toBe('unsupported_media_type');
  });

  it('when the JSON is malformed, then 400', async () => {
    const r = await request(t.app)
      .post('/t/items')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(r.body.errors[0].code).toBe('bad_request');
  });

  it('when several members are invalid, then 400 lists each with its path', async () => {
    const r = await request(t.app)
      .post('/t/items')
      .set(admin)
      .send({ name: '', age: -1, extra: true })
      .expect(400);
    const paths = r.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['body.name', 'body.age']));
    expect(r.body.errors.every((e: { code: string }) => e.code === 'validation_error')).toBe(true);
  });

  it('when the admin token is missing or wrong, then 401', async () => {
    await request(t.app).post('/t/items').send({ name: 'a', age: 1 }).expect(401);
    await request(t.app)
      .post('/t/items')
      .set('Authorization', 'Bearer wrong-token-xxxxxxxxxxxx')
      .send({ name: 'a', age: 1 })
      .expect(401);
  });

  it('when a handler throws an unexpected error, then 500 without internals', async () => {
    const r = await request(t.app).get('/t/boom').expect(500);
    expect(JSON.stringify(r.body)).not.toMatch(/hunter2|srv|internals/);
    expect(r.body.errors[0]).toEqual({ msg: 'Internal server error', code: 'internal_error' });
  });

  it('when a conflict is raised, then 409 names the path', async () => {
    const r = await request(t.app).get('/t/conflict').expect(409);
    expect(r.body.errors[0]).toMatchObject({ code: 'conflict', path: 'body.email' });
  });

  it('when health, readiness and OpenAPI are asked, then they answer', async () => {
    await request(t.app).get('/healthz').expect(200, { status: 'ok' });
    await request(t.app).get('/readyz').expect(200);
    const spec = await request(t.app).get('/openapi.json').expect(200);
    expect(spec.body.openapi).toBe('3.1.0');
    expect(spec.body.paths['/t/items'].post.requestBody).toBeDefined();
    const metrics = await request(t.app).get('/metrics').expect(200);
    expect(metrics.text).toContain('ivr_turns_total');
  });
});
