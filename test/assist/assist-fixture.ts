/** Shared set-up of the skill-group import tests: a test app with the assist component and payloads. */
import request from 'supertest';
import type { Store } from '../../src/store/index.js';
import { createAssistComponent, type AssistComponent, type AssistOptions } from '../../src/assist/index.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/test-app.js';

export const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
export const ACCOUNT = 'acc-1';
export const ORG = 'org-1';

export const skill = (id: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  name: `Skill ${id}`,
  isDefault: false,
  description: 'a skill',
  status: 'ACTIVE',
  lname: `skill ${id}`,
  iId: 'st-source',
  createdByAId: 'ag-admin',
  agents: ['ag-1'],
  ...extra,
});

export const group = (id: string, name = `Group ${id}`, extra: Record<string, unknown> = {}) => ({
  _id: id,
  name,
  description: 'desc',
  status: 'ACTIVE',
  color: '#1a2b3c',
  lname: name.toLowerCase(),
  isDefault: false,
  iId: 'st-source',
  createdByAId: 'ag-admin',
  agentGroups: ['agg-1'],
  agents: ['ag-1', 'ag-2'],
  skills: [skill(`${id}-s1`), skill(`${id}-s2`)],
  ...extra,
});

export const metaData = (extra: Record<string, unknown> = {}) => ({
  userId: 'u-1',
  orgId: ORG,
  type: 'skillGroups',
  accountId: ACCOUNT,
  ...extra,
});

export interface Importer {
  botId: string;
  token: string;
}

export interface AssistFixture {
  t: TestApp;
  component: AssistComponent;
  /** An app with an API client (scope `assist-import-export` by default). */
  importer(scopes?: string[]): Promise<Importer>;
  /** POST to the import path with the default (matching) query and header unless overridden. */
  post(
    who: Importer,
    body: unknown,
    opts?: { query?: Record<string, string | undefined>; accountHeader?: string | null; botId?: string },
  ): request.Test;
  readBack(streamId: string, accountId?: string, orgId?: string): request.Test;
}

export function assistFixture(store: Store, options: AssistOptions = {}): AssistFixture {
  let component!: AssistComponent;
  const t = buildTestApp({
    store,
    routes: (deps) => {
      component = createAssistComponent(deps, options);
      return component.routes;
    },
  });
  return {
    t,
    component,
    async importer(scopes = ['assist-import-export']) {
      const c = await t.createAppWithClient(scopes);
      return { botId: c.streamId, token: c.token() };
    },
    post(who, body, opts = {}) {
      const query = Object.fromEntries(
        Object.entries({ accountId: ACCOUNT, orgId: ORG, type: 'skillGroups', ...opts.query }).filter(
          (e): e is [string, string] => e[1] !== undefined,
        ),
      );
      const req = request(t.app)
        .post(`/assist/api/v1/public/analytics/${opts.botId ?? who.botId}/storeAssistFunctionalities`)
        .query(query)
        .set('auth', who.token);
      if (opts.accountHeader !== null) req.set('accountId', opts.accountHeader ?? ACCOUNT);
      return req.send(body as object);
    },
    readBack(streamId, accountId = ACCOUNT, orgId = ORG) {
      return request(t.app)
        .get(`/api/admin/apps/${streamId}/skill-groups`)
        .query({ accountId, orgId })
        .set(admin);
    },
  };
}
