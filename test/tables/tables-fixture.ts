/** Shared set-up of the data-table tests: a test app with the tables component and helpers. */
import request from 'supertest';
import { expect } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { createTablesComponent, type TablesComponent, type TablesOptions } from '../../src/tables/index.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/test-app.js';

export const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

export interface TablesFixture {
  t: TestApp;
  component: TablesComponent;
  /** An app with an API client (scope `tables` by default) and a signed token. */
  writer(scopes?: string[]): Promise<{ streamId: string; auth: { auth: string } }>;
  /** Defines a table through the operator API and expects 200. */
  define(name: string, body: Record<string, unknown>): Promise<Record<string, unknown>>;
  insert(name: string, auth: { auth: string }, data: unknown): request.Test;
}

let counter = 0;
/** A table name no other test of the file uses. */
export const uniqueTable = (base: string): string =>
  `${base}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;

export function tablesFixture(store: Store, options: TablesOptions = {}): TablesFixture {
  let component!: TablesComponent;
  const t = buildTestApp({
    store,
    routes: (deps) => {
      component = createTablesComponent(deps, options);
      return component.routes;
    },
  });
  return {
    t,
    component,
    async writer(scopes = ['tables']) {
      const c = await t.createAppWithClient(scopes);
      return { streamId: c.streamId, auth: { auth: c.token() } };
    },
    async define(name, body) {
      const r = await request(t.app).put(`/api/admin/tables/${name}`).set(admin).send(body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as Record<string, unknown>;
    },
    insert(name, auth, data) {
      return request(t.app).post(`/api/public/tables/${name}`).set(auth).send({ data });
    },
  };
}
