import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { storeKeys, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { tablesFixture, uniqueTable, type TablesFixture } from './tables-fixture.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const paths = (body: { errors: Array<{ path?: string }> }): Array<string | undefined> =>
  body.errors.map((e) => e.path);

describeEachStore('data table insert', 'api', (factory) => {
  let store: Store;
  let f: TablesFixture;
  let w: { streamId: string; auth: { auth: string } };
  const table = uniqueTable('people');

  beforeAll(async () => {
    store = await factory.make();
    f = tablesFixture(store);
    w = await f.writer();
    await f.define(table, {
      columns: [
        { name: 'name', type: 'string', required: true, maxLength: 10 },
        { name: 'email', type: 'string', unique: true },
        { name: 'age', type: 'number' },
        { name: 'born', type: 'date' },
        { name: 'status', type: 'string', default: 'new' },
        { name: 'score', type: 'number', default: 0, required: true },
        { name: 'ssn', type: 'string', encrypted: true },
      ],
      access: { [w.streamId]: { read: true, write: true } },
    });
  });
  afterAll(() => store.close());

  describe('success', () => {
    it('when a valid record is inserted, then 201 with the columns, defaults and system members', async () => {
      const r = await f.insert(table, w.auth, { name: 'Ada', age: 36 }).expect(201);
      expect(r.body).toMatchObject({
        name: 'Ada',
        age: 36,
        status: 'new',
        score: 0,
        Created_By: w.streamId,
        Updated_By: w.streamId,
      });
      expect(r.body.sys_Id).toMatch(new RegExp(`^sys-${UUID}$`));
      expect(r.body._id).toBe(r.body.sys_Id.slice(4));
      expect(r.body.Created_On).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(r.body.Updated_On).toBe(r.body.Created_On);
      expect(r.body).not.toHaveProperty('email');
      expect(r.body).not.toHaveProperty('ssn');
    });

    it('when dates are given in ISO 8601 forms, then they are stored as UTC ISO', async () => {
      const a = await f.insert(table, w.auth, { name: 'A', born: '1990-05-01' }).expect(201);
      expect(a.body.born).toBe('1990-05-01T00:00:00.000Z');
      const b = await f.insert(table, w.auth, { name: 'B', born: '1990-05-01T12:30:00+02:00' }).expect(201);
      expect(b.body.born).toBe('1990-05-01T10:30:00.000Z');
      const c = await f
        .insert(table, w.auth, { name: 'C', born: '1990-05-01T23:30:00.25-01:00' })
        .expect(201);
      expect(c.body.born).toBe('1990-05-02T00:30:00.250Z');
      expect((await f.component.service.readRow(table, c.body.sys_Id))?.born).toBe(
        '1990-05-02T00:30:00.250Z',
      );
    });

    it('when a column is given null, then the default applies or null is kept', async () => {
      const r = await f.insert(table, w.auth, { name: 'N', status: null, age: null }).expect(201);
      expect(r.body).toMatchObject({ status: 'new', age: null });
    });
  });

  describe('encryption at rest', () => {
    it('when an encrypted column is written, then the store holds no clear text and the writer gets it back', async () => {
      const secret = '078-05-1120-unique-clear';
      const r = await f.insert(table, w.auth, { name: 'Enc', ssn: secret }).expect(201);
      expect(r.body.ssn).toBe(secret);
      const raw = await store.get(storeKeys.tableRow(table, r.body.sys_Id));
      expect(raw).toBeTruthy();
      expect(raw).not.toContain(secret);
      expect(raw).toContain('Enc');
      expect(JSON.parse(raw!).record.ssn).toMatch(/^v1\./);
      expect((await f.component.service.readRow(table, r.body.sys_Id))?.ssn).toBe(secret);
    });
  });

  describe('validation', () => {
    it('when an unknown or system column is sent, then 400 naming body.data.<col>', async () => {
      const r = await f.insert(table, w.auth, { name: 'X', nickname: 'x', sys_Id: 'sys-1' }).expect(400);
      expect(paths(r.body)).toEqual(['body.data.nickname', 'body.data.sys_Id']);
      expect(r.body.errors[0].code).toBe('validation_error');
    });

    it('when values have the wrong type, then 400 for each', async () => {
      const r = await f
        .insert(table, w.auth, { name: 5, age: '36', born: 'yesterday', email: true })
        .expect(400);
      expect(paths(r.body)).toEqual(['body.data.name', 'body.data.email', 'body.data.age', 'body.data.born']);
    });

    it('when an impossible date is sent, then 400', async () => {
      const r = await f.insert(table, w.auth, { name: 'D', born: '2023-02-29' }).expect(400);
      expect(paths(r.body)).toEqual(['body.data.born']);
    });

    it('when a required column is missing, then 400 naming it', async () => {
      const r = await f.insert(table, w.auth, { age: 3 }).expect(400);
      expect(r.body.errors).toEqual([
        { msg: 'is required', code: 'validation_error', path: 'body.data.name' },
      ]);
    });

    it('when a string is longer than maxLength, then 400', async () => {
      const r = await f.insert(table, w.auth, { name: 'x'.repeat(11) }).expect(400);
      expect(r.body.errors[0]).toMatchObject({
        path: 'body.data.name',
        msg: 'must be at most 10 characters',
      });
    });

    it('when data is missing or not an object, then 400 at body.data', async () => {
      const a = await request(f.t.app).post(`/api/public/tables/${table}`).set(w.auth).send({}).expect(400);
      expect(paths(a.body)).toEqual(['body.data']);
      const b = await request(f.t.app)
        .post(`/api/public/tables/${table}`)
        .set(w.auth)
        .send({ data: [1] })
        .expect(400);
      expect(paths(b.body)).toEqual(['body.data']);
    });

    it('when the content type is not JSON, then 415', async () => {
      await request(f.t.app)
        .post(`/api/public/tables/${table}`)
        .set(w.auth)
        .set('Content-Type', 'text/plain')
        .send('data')
        .expect(415);
    });

    it('when the body is over the platform limit, then 413', async () => {
      const big = JSON.stringify({ data: { name: 'x'.repeat(1_100_000) } });
      await request(f.t.app)
        .post(`/api/public/tables/${table}`)
        .set(w.auth)
        .set('Content-Type', 'application/json')
        .send(big)
        .expect(413);
    });
  });

  describe('uniqueness', () => {
    it('when a unique value is inserted twice, then 409 naming the column', async () => {
      await f.insert(table, w.auth, { name: 'U1', email: 'u@example.com' }).expect(201);
      const r = await f.insert(table, w.auth, { name: 'U2', email: 'u@example.com' }).expect(409);
      expect(r.body.errors[0]).toMatchObject({ code: 'conflict', path: 'body.data.email' });
      expect(r.body.errors[0].msg).toContain('email');
    });

    it('when 20 inserts with the same unique value run in parallel, then exactly one is 201 and the rest 409', async () => {
      const before = await store.zcard(storeKeys.tableRows(table));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          f.insert(table, w.auth, { name: `P${i}`, email: 'race@example.com' }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      expect(await store.zcard(storeKeys.tableRows(table))).toBe(before + 1);
      const winner = results.find((r) => r.status === 201)!;
      expect(await store.hget(storeKeys.tableUnique(table, 'email'), 'race@example.com')).toBe(
        winner.body.sys_Id,
      );
    });

    it('when the unique column is left empty in several rows, then they do not collide', async () => {
      await f.insert(table, w.auth, { name: 'E1' }).expect(201);
      await f.insert(table, w.auth, { name: 'E2', email: null }).expect(201);
    });
  });

  describe('auth and access', () => {
    it('when no token is sent, then 401', async () => {
      const r = await f.insert(table, {} as { auth: string }, { name: 'x' }).expect(401);
      expect(r.body.errors[0]).toMatchObject({ msg: 'Invalid SDK credentials', code: 4002 });
    });

    it('when the token is signed with another secret, then 401', async () => {
      const c = await f.t.createAppWithClient(['tables']);
      const other = await f.t.createAppWithClient(['tables']);
      const forged = { auth: c.token().split('.').slice(0, 2).join('.') + '.' + other.token().split('.')[2] };
      await f.insert(table, forged, { name: 'x' }).expect(401);
    });

    it('when the token lacks the tables scope, then 403', async () => {
      const c = await f.writer(['chat-history']);
      const r = await f.insert(table, c.auth, { name: 'x' }).expect(403);
      expect(r.body.errors[0].msg).toBe('Permission denied. Scope is incorrect!');
    });

    it('when the app has no write access, then 403', async () => {
      const stranger = await f.writer();
      await f.insert(table, stranger.auth, { name: 'x' }).expect(403);
      const reader = await f.writer();
      const name = uniqueTable('readonly');
      await f.define(name, {
        columns: [{ name: 'a', type: 'string' }],
        access: { [reader.streamId]: { read: true, write: false } },
      });
      const r = await f.insert(name, reader.auth, { a: 'x' }).expect(403);
      expect(r.body.errors[0].msg).toMatch(/write access/);
    });

    it('when the table is unknown, then 404', async () => {
      await f.insert(uniqueTable('missing'), w.auth, { name: 'x' }).expect(404);
      await f.insert('not a table', w.auth, { name: 'x' }).expect(404);
    });
  });
});

describeEachStore('data table insert rate limit', 'api', (factory) => {
  let store: Store;
  beforeAll(async () => {
    store = await factory.make();
  });
  afterAll(() => store.close());

  it('when an app exceeds the per-table limit, then 429 with Retry-After, and other tables are unaffected', async () => {
    const f = tablesFixture(store, { rateLimit: { perMinute: 3, perHour: 100 } });
    const w = await f.writer();
    const access = { [w.streamId]: { read: true, write: true } };
    const [a, b] = [uniqueTable('limited'), uniqueTable('other')];
    await f.define(a, { columns: [{ name: 'v', type: 'number' }], access });
    await f.define(b, { columns: [{ name: 'v', type: 'number' }], access });
    for (let i = 0; i < 3; i++) await f.insert(a, w.auth, { v: i }).expect(201);
    const r = await f.insert(a, w.auth, { v: 4 }).expect(429);
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.body.errors[0].msg).toBe(
      'Rate limit for this API has been reached. Please try again after some time.',
    );
    await f.insert(b, w.auth, { v: 1 }).expect(201);
  });
});
