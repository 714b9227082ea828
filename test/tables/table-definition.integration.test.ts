import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { storeKeys, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { admin, tablesFixture, uniqueTable, type TablesFixture } from './tables-fixture.js';

const paths = (body: { errors: Array<{ path?: string }> }): Array<string | undefined> =>
  body.errors.map((e) => e.path);

describeEachStore('data table definitions', 'api', (factory) => {
  let store: Store;
  let f: TablesFixture;
  beforeAll(async () => {
    store = await factory.make();
    f = tablesFixture(store);
  });
  afterAll(() => store.close());

  const put = (name: string, body: unknown) =>
    request(f.t.app)
      .put(`/api/admin/tables/${name}`)
      .set(admin)
      .send(body as object);

  describe('defining', () => {
    it('when a valid definition is put, then it is stored, normalised and read back', async () => {
      const w = await f.writer();
      const name = uniqueTable('customers');
      const def = await f.define(name, {
        columns: [
          { name: 'name', type: 'string', required: true, maxLength: 40 },
          { name: 'email', type: 'string', unique: true },
          { name: 'born', type: 'date', default: '2000-01-01' },
          { name: 'ssn', type: 'string', encrypted: true },
        ],
        access: { [w.streamId]: { read: true, write: true } },
      });
      expect(def).toMatchObject({
        tableName: name,
        columns: [
          { name: 'name', type: 'string', required: true, unique: false, encrypted: false, maxLength: 40 },
          { name: 'email', type: 'string', required: false, unique: true, encrypted: false },
          { name: 'born', type: 'date', default: '2000-01-01T00:00:00.000Z' },
          { name: 'ssn', encrypted: true },
        ],
        access: { [w.streamId]: { read: true, write: true } },
      });
      expect(def.createdOn).toMatch(/Z$/);
      const r = await request(f.t.app).get(`/api/admin/tables/${name}`).set(admin).expect(200);
      expect(r.body).toEqual(def);
    });

    it('when the platform schemaDef shape is put, then it is accepted as an alias', async () => {
      const name = uniqueTable('legacy');
      const def = await f.define(name, {
        schemaDef: [
          {
            name: 'title',
            type: 'string',
            isRequired: true,
            isEncrypted: false,
            reference: null,
            maxLength: 10,
            default: 'x',
          },
          { name: 'secret', type: 'string', isRequired: false, isEncrypted: true },
          { name: 'owner', type: 'string', reference: 'users' },
        ],
      });
      expect(def.columns).toEqual([
        {
          name: 'title',
          type: 'string',
          required: true,
          unique: false,
          encrypted: false,
          maxLength: 10,
          default: 'x',
        },
        { name: 'secret', type: 'string', required: false, unique: false, encrypted: true },
        {
          name: 'owner',
          type: 'string',
          required: false,
          unique: false,
          encrypted: false,
          reference: 'users',
        },
      ]);
      expect(def.access).toEqual({});
    });

    it('when an unknown table is read, then 404', async () => {
      await request(f.t.app)
        .get(`/api/admin/tables/${uniqueTable('none')}`)
        .set(admin)
        .expect(404);
    });

    it('when the admin token is missing, then 401', async () => {
      await request(f.t.app)
        .put(`/api/admin/tables/${uniqueTable('x')}`)
        .send({ columns: [{ name: 'a', type: 'string' }] })
        .expect(401);
    });

    it('when the body is not JSON, then 415', async () => {
      await request(f.t.app)
        .put(`/api/admin/tables/${uniqueTable('x')}`)
        .set(admin)
        .set('Content-Type', 'text/plain')
        .send('columns')
        .expect(415);
    });
  });

  describe('validation', () => {
    it('when the table name breaks the pattern, then 400 at params.tableName', async () => {
      const r = await put('1bad-name', { columns: [{ name: 'a', type: 'string' }] }).expect(400);
      expect(paths(r.body)).toContain('params.tableName');
    });

    it('when column names break the pattern, repeat or are system columns, then 400 names each', async () => {
      const r = await put(uniqueTable('t'), {
        columns: [
          { name: 'ok', type: 'string' },
          { name: 'has space', type: 'string' },
          { name: 'OK', type: 'number' },
          { name: 'sys_Id', type: 'string' },
          { name: 'created_on', type: 'date' },
        ],
      }).expect(400);
      expect(paths(r.body)).toEqual(expect.arrayContaining(['body.columns.1.name']));
      // pattern errors come from the shape check; the rest once the shape is valid
      const r2 = await put(uniqueTable('t'), {
        columns: [
          { name: 'ok', type: 'string' },
          { name: 'OK', type: 'number' },
          { name: 'sys_Id', type: 'string' },
          { name: 'Created_On', type: 'date' },
        ],
      }).expect(400);
      expect(paths(r2.body)).toEqual(['body.columns.1.name', 'body.columns.2.name', 'body.columns.3.name']);
      expect(r2.body.errors[0].msg).toMatch(/duplicate/);
      expect(r2.body.errors[1].msg).toMatch(/system column/);
    });

    it('when _id is used as a column name, then 400 (system column and not a valid name)', async () => {
      const r = await put(uniqueTable('t'), { columns: [{ name: '_id', type: 'string' }] }).expect(400);
      expect(paths(r.body)).toEqual(['body.columns.0.name']);
    });

    it('when a default has the wrong type, then 400 at its default', async () => {
      const r = await put(uniqueTable('t'), {
        columns: [
          { name: 'n', type: 'number', default: 'five' },
          { name: 'd', type: 'date', default: '2023-02-29' },
          { name: 's', type: 'string', default: 5 },
          { name: 'short', type: 'string', maxLength: 2, default: 'abc' },
          { name: 'fine', type: 'number', default: 3 },
        ],
      }).expect(400);
      expect(paths(r.body)).toEqual([
        'body.columns.0.default',
        'body.columns.1.default',
        'body.columns.2.default',
        'body.columns.3.default',
      ]);
    });

    it('when maxLength is given on a non-string column, then 400', async () => {
      const r = await put(uniqueTable('t'), {
        columns: [{ name: 'n', type: 'number', maxLength: 3 }],
      }).expect(400);
      expect(r.body.errors[0]).toMatchObject({
        path: 'body.columns.0.maxLength',
        msg: 'maxLength applies only to string columns',
      });
    });

    it('when a column is both unique and encrypted, then 400 explaining why', async () => {
      const r = await put(uniqueTable('t'), {
        columns: [{ name: 'ssn', type: 'string', unique: true, encrypted: true }],
      }).expect(400);
      expect(r.body.errors[0].path).toBe('body.columns.0.unique');
      expect(r.body.errors[0].msg).toMatch(/random IV/);
    });

    it('when a unique column has a default, then 400', async () => {
      const r = await put(uniqueTable('t'), {
        columns: [{ name: 'code', type: 'string', unique: true, default: 'A' }],
      }).expect(400);
      expect(r.body.errors[0].path).toBe('body.columns.0.default');
    });

    it('when the type is not string, number or date, then 400 at its type', async () => {
      const r = await put(uniqueTable('t'), { columns: [{ name: 'flag', type: 'boolean' }] }).expect(400);
      expect(paths(r.body)).toEqual(['body.columns.0.type']);
    });

    it('when neither or both of columns and schemaDef are given, then 400', async () => {
      const r = await put(uniqueTable('t'), { access: {} }).expect(400);
      expect(paths(r.body)).toEqual(['body.columns']);
      const both = await put(uniqueTable('t'), {
        columns: [{ name: 'a', type: 'string' }],
        schemaDef: [{ name: 'a', type: 'string' }],
      }).expect(400);
      expect(paths(both.body)).toEqual(['body.schemaDef']);
    });

    it('when access names something that is not an app id or an unknown app, then 400 at that member', async () => {
      const bad = await put(uniqueTable('t'), {
        columns: [{ name: 'a', type: 'string' }],
        access: { nobody: { read: true, write: true } },
      }).expect(400);
      expect(paths(bad.body)).toEqual(['body.access.nobody']);
      const ghost = 'st-00000000-0000-4000-8000-000000000000';
      const unknown = await put(uniqueTable('t'), {
        columns: [{ name: 'a', type: 'string' }],
        access: { [ghost]: { read: true, write: true } },
      }).expect(400);
      expect(unknown.body.errors[0]).toMatchObject({ path: `body.access.${ghost}`, msg: 'unknown app' });
      const shape = await put(uniqueTable('t'), {
        columns: [{ name: 'a', type: 'string' }],
        access: { [ghost]: { read: 'yes' } },
      }).expect(400);
      expect(paths(shape.body)).toEqual(
        expect.arrayContaining([`body.access.${ghost}.read`, `body.access.${ghost}.write`]),
      );
    });
  });

  describe('redefining', () => {
    it('when an app named in its access was deleted, then the table is redefined without that rule, and a new rule for it is still refused', async () => {
      const kept = await f.writer();
      const gone = await f.writer();
      const name = uniqueTable('shared');
      const access = {
        [kept.streamId]: { read: true, write: true },
        [gone.streamId]: { read: true, write: false },
      };
      await f.define(name, { columns: [{ name: 'a', type: 'string' }], access });
      await f.t.apps.deleteApp(gone.streamId);
      const again = await f.define(name, {
        columns: [
          { name: 'a', type: 'string' },
          { name: 'b', type: 'string' },
        ],
        access,
      });
      expect(again.access).toEqual({ [kept.streamId]: { read: true, write: true } });
      const other = uniqueTable('fresh');
      const refused = await put(other, { columns: [{ name: 'a', type: 'string' }], access }).expect(400);
      expect(refused.body.errors[0]).toMatchObject({
        path: `body.access.${gone.streamId}`,
        msg: 'unknown app',
      });
    });

    it('when a table is redefined, then its rows are kept and the new columns apply', async () => {
      const w = await f.writer();
      const name = uniqueTable('evolving');
      const access = { [w.streamId]: { read: true, write: true } };
      const first = await f.define(name, { columns: [{ name: 'a', type: 'string' }], access });
      const row = await f.insert(name, w.auth, { a: 'one' }).expect(201);
      const second = await f.define(name, {
        columns: [
          { name: 'a', type: 'string' },
          { name: 'b', type: 'number', default: 7 },
        ],
        access,
      });
      expect(second.createdOn).toBe(first.createdOn);
      expect(await f.component.service.readRow(name, row.body.sys_Id)).toMatchObject({ a: 'one' });
      const next = await f.insert(name, w.auth, { a: 'two' }).expect(201);
      expect(next.body).toMatchObject({ a: 'two', b: 7 });
      const got = await request(f.t.app).get(`/api/admin/tables/${name}`).set(admin).expect(200);
      expect(got.body.columns).toHaveLength(2);
    });

    it('when a column is made unique over rows holding duplicates, then 409 and the old definition stays', async () => {
      const w = await f.writer();
      const name = uniqueTable('dups');
      const access = { [w.streamId]: { read: true, write: true } };
      await f.define(name, { columns: [{ name: 'code', type: 'string' }], access });
      await f.insert(name, w.auth, { code: 'X' }).expect(201);
      await f.insert(name, w.auth, { code: 'X' }).expect(201);
      const r = await put(name, { columns: [{ name: 'code', type: 'string', unique: true }], access }).expect(
        409,
      );
      expect(r.body.errors[0].path).toBe('body.columns.0.unique');
      const got = await request(f.t.app).get(`/api/admin/tables/${name}`).set(admin).expect(200);
      expect(got.body.columns[0].unique).toBe(false);
    });

    it('when a column is made unique over distinct rows, then the index covers the existing rows', async () => {
      const w = await f.writer();
      const name = uniqueTable('later_unique');
      const access = { [w.streamId]: { read: true, write: true } };
      await f.define(name, { columns: [{ name: 'code', type: 'string' }], access });
      await f.insert(name, w.auth, { code: 'A' }).expect(201);
      await f.define(name, { columns: [{ name: 'code', type: 'string', unique: true }], access });
      const r = await f.insert(name, w.auth, { code: 'A' }).expect(409);
      expect(r.body.errors[0].path).toBe('body.data.code');
      await f.insert(name, w.auth, { code: 'B' }).expect(201);
    });

    it('when a column is made unique while inserts race, then no duplicate survives under the unique definition', async () => {
      const w = await f.writer();
      const name = uniqueTable('racing');
      const access = { [w.streamId]: { read: true, write: true } };
      await f.define(name, { columns: [{ name: 'code', type: 'string' }], access });
      const inserts = Array.from({ length: 10 }, () => f.insert(name, w.auth, { code: 'Z' }));
      const redefine = put(name, { columns: [{ name: 'code', type: 'string', unique: true }], access });
      const [def, ...rows] = await Promise.all([redefine, ...inserts]);
      expect([200, 409]).toContain(def.status);
      expect(rows.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      const final = await request(f.t.app).get(`/api/admin/tables/${name}`).set(admin).expect(200);
      const ids = (await store.zrange(storeKeys.tableRows(name), 0, -1)).map((m) => m.member);
      if (final.body.columns[0].unique) {
        expect(ids.length).toBeLessThanOrEqual(1);
        if (ids.length === 1) expect(await store.hget(storeKeys.tableUnique(name, 'code'), 'Z')).toBe(ids[0]);
      } else {
        expect(ids.length).toBe(rows.filter((r) => r.status === 201).length);
      }
    });

    it('when a column stops being unique, then duplicates are accepted', async () => {
      const w = await f.writer();
      const name = uniqueTable('relaxed');
      const access = { [w.streamId]: { read: true, write: true } };
      await f.define(name, { columns: [{ name: 'code', type: 'string', unique: true }], access });
      await f.insert(name, w.auth, { code: 'A' }).expect(201);
      await f.insert(name, w.auth, { code: 'A' }).expect(409);
      await f.define(name, { columns: [{ name: 'code', type: 'string' }], access });
      await f.insert(name, w.auth, { code: 'A' }).expect(201);
    });
  });
});
