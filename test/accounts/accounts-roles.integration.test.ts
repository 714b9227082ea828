/**
 * Operator accounts and roles over real HTTP on the API stores (memory, Redis): invitations, password sign-in in the
 * console, the caller's identity, roles enforced by the operator API (403 naming the missing role),
 * per-app roles, personal API tokens, disabling and password changes, and the audit trail of it all.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { call, makeOperator, signInWithPassword, type Operator } from './operator-kit.js';

const agent = {
  name: 'Greeter',
  language: 'en',
  startNode: 'hello',
  nodes: [{ id: 'hello', type: 'message', text: 'Hello there' }],
};

describeEachStore('operator accounts and roles', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let appA: string;
  let appB: string;
  let editor: Operator;
  let viewer: Operator;
  let appEditor: Operator;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    appA = (await gw.admin('POST', '/api/admin/apps', { name: 'A', language: 'en' })).body.streamId;
    appB = (await gw.admin('POST', '/api/admin/apps', { name: 'B', language: 'en' })).body.streamId;
    editor = await makeOperator(gw, 'editor@example.com', [{ role: 'editor' }]);
    viewer = await makeOperator(gw, 'viewer@example.com', [{ role: 'viewer' }]);
    appEditor = await makeOperator(gw, 'app-editor@example.com', [{ role: 'editor', app: appA }]);
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when an invited operator sets a password and signs in, then the session says who they are and works on the operator API', async () => {
    const me = await call(gw, 'GET', '/api/account', { cookie: editor.cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      kind: 'account',
      email: 'editor@example.com',
      grants: [{ role: 'editor' }],
      via: 'session',
    });
    const session = await call(gw, 'GET', '/api/console/session', { cookie: viewer.cookie });
    expect(session.body.holder).toMatchObject({ kind: 'account', email: 'viewer@example.com' });
    expect((await call(gw, 'GET', '/api/admin/apps', { cookie: viewer.cookie })).status).toBe(200);
    const listed = await gw.admin('GET', '/api/admin/accounts');
    expect(
      listed.body.accounts.map((a: { email: string; status: string }) => `${a.email}:${a.status}`),
    ).toEqual(expect.arrayContaining(['editor@example.com:active', 'viewer@example.com:active']));
  });

  it('when the password is wrong or the email unknown, then sign-in answers 401 alike and sets no cookie', async () => {
    const wrong = await signInWithPassword(gw, 'editor@example.com', 'not the password at all');
    const unknown = await signInWithPassword(gw, 'nobody@example.com', 'not the password at all');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.errors).toEqual(unknown.body.errors);
    expect(wrong.cookie).toBe('');
  });

  it('when a viewer saves an agent or settings, then the API answers 403 naming the editor role, and nothing changes', async () => {
    const put = await call(gw, 'PUT', `/api/admin/apps/${appA}/agent`, { cookie: viewer.cookie }, agent);
    expect(put.status).toBe(403);
    expect(put.body.errors[0]).toMatchObject({ code: 'role_required', path: 'role.editor' });
    expect(put.body.errors[0].msg).toContain('editor role');
    const patch = await call(
      gw,
      'PATCH',
      `/api/admin/apps/${appA}/ivr-settings`,
      { cookie: viewer.cookie },
      { retries: 2 },
    );
    expect(patch.status).toBe(403);
    expect((await gw.admin('GET', `/api/admin/apps/${appA}/agent`)).status).toBe(404);
    expect(
      (await call(gw, 'GET', `/api/admin/apps/${appA}/ivr-settings`, { cookie: viewer.cookie })).status,
    ).toBe(200);
  });

  it('when an editor changes settings, then it is allowed, but managing accounts needs the owner role', async () => {
    const patch = await call(
      gw,
      'PATCH',
      `/api/admin/apps/${appA}/ivr-settings`,
      { cookie: editor.cookie },
      { retries: 2 },
    );
    expect(patch.status).toBe(200);
    const accounts = await call(gw, 'GET', '/api/admin/accounts', { cookie: editor.cookie });
    expect(accounts.status).toBe(403);
    expect(accounts.body.errors[0].msg).toContain('owner role');
  });

  it('when an account is an editor of one app, then it changes that app, reads the list, and is refused on another app', async () => {
    expect(
      (
        await call(
          gw,
          'PATCH',
          `/api/admin/apps/${appA}/ivr-settings`,
          { cookie: appEditor.cookie },
          { retries: 3 },
        )
      ).status,
    ).toBe(200);
    const other = await call(
      gw,
      'PATCH',
      `/api/admin/apps/${appB}/ivr-settings`,
      { cookie: appEditor.cookie },
      { retries: 3 },
    );
    expect(other.status).toBe(403);
    expect(other.body.errors[0].msg).toContain(appB);
    expect((await call(gw, 'GET', `/api/admin/apps/${appB}`, { cookie: appEditor.cookie })).status).toBe(403);
    expect((await call(gw, 'GET', '/api/admin/apps', { cookie: appEditor.cookie })).status).toBe(200);
    expect(
      (await call(gw, 'POST', '/api/admin/apps', { cookie: appEditor.cookie }, { name: 'C', language: 'en' }))
        .status,
    ).toBe(403);
  });

  it('when an operator makes a personal API token, then it is shown once, listed without the token, works with the roles of the account, and is refused once revoked', async () => {
    const made = await call(
      gw,
      'POST',
      '/api/account/tokens',
      { cookie: editor.cookie },
      { name: 'deploy script' },
    );
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^pat_/);
    const listed = await call(gw, 'GET', '/api/account/tokens', { cookie: editor.cookie });
    expect(listed.body.tokens).toEqual([
      { id: made.body.id, name: 'deploy script', createdOn: made.body.createdOn },
    ]);
    expect(listed.text).not.toContain(made.body.token);
    const me = await call(gw, 'GET', '/api/account', { bearer: made.body.token });
    expect(me.body).toMatchObject({ email: 'editor@example.com', via: 'token' });
    expect(
      (
        await call(
          gw,
          'PATCH',
          `/api/admin/apps/${appA}/ivr-settings`,
          { bearer: made.body.token },
          { retries: 1 },
        )
      ).status,
    ).toBe(200);
    expect(
      (await call(gw, 'DELETE', `/api/account/tokens/${made.body.id}`, { cookie: editor.cookie })).status,
    ).toBe(204);
    expect((await call(gw, 'GET', '/api/admin/apps', { bearer: made.body.token })).status).toBe(401);
  });

  it('when an owner disables an account, then its session and tokens are refused at once, and it cannot sign in', async () => {
    const op = await makeOperator(gw, 'leaver@example.com', [{ role: 'editor' }]);
    const token = (await call(gw, 'POST', '/api/account/tokens', { cookie: op.cookie }, { name: 'cron' }))
      .body.token as string;
    expect((await call(gw, 'GET', '/api/admin/apps', { bearer: token })).status).toBe(200);
    const disabled = await gw.admin('PATCH', `/api/admin/accounts/${op.id}`, { disabled: true });
    expect(disabled.body.status).toBe('disabled');
    expect((await call(gw, 'GET', '/api/admin/apps', { cookie: op.cookie })).status).toBe(401);
    expect((await call(gw, 'GET', '/api/admin/apps', { bearer: token })).status).toBe(401);
    expect((await signInWithPassword(gw, op.email, op.password)).status).toBe(401);
    // enabled again, its token works again (a revoked one would not)
    await gw.admin('PATCH', `/api/admin/accounts/${op.id}`, { disabled: false });
    expect((await call(gw, 'GET', '/api/admin/apps', { bearer: token })).status).toBe(200);
  });

  it('when an operator changes the password, then the old one and the sessions made with it are refused, and the new one signs in', async () => {
    const op = await makeOperator(gw, 'changer@example.com', [{ role: 'viewer' }]);
    const wrong = await call(
      gw,
      'PUT',
      '/api/account/password',
      { cookie: op.cookie },
      { currentPassword: 'wrong-password-here', newPassword: 'a-new-password-1234' },
    );
    expect(wrong.status).toBe(403);
    const ok = await call(
      gw,
      'PUT',
      '/api/account/password',
      { cookie: op.cookie },
      { currentPassword: op.password, newPassword: 'a-new-password-1234' },
    );
    expect(ok.status).toBe(204);
    expect((await call(gw, 'GET', '/api/admin/apps', { cookie: op.cookie })).status).toBe(401);
    expect((await signInWithPassword(gw, op.email, op.password)).status).toBe(401);
    expect((await signInWithPassword(gw, op.email, 'a-new-password-1234')).status).toBe(201);
  });

  it('when changes are made through the operator API, then the audit trail lists each with its author and a diff, filtered by author and app', async () => {
    await call(
      gw,
      'PATCH',
      `/api/admin/apps/${appB}/ivr-settings`,
      { cookie: editor.cookie },
      { retries: 4, welcomeMessage: 'Welcome to B' },
    );
    await gw.admin('PATCH', `/api/admin/apps/${appB}/ivr-settings`, { retries: 5 });
    const byEditor = await call(gw, 'GET', `/api/admin/audit?author=editor@example.com&app=${appB}`, {
      cookie: viewer.cookie,
    });
    expect(byEditor.status).toBe(200);
    const [entry] = byEditor.body.entries;
    expect(entry).toMatchObject({
      action: 'PATCH /api/admin/apps/:streamId/ivr-settings',
      app: appB,
      status: 200,
      author: { kind: 'account', email: 'editor@example.com' },
    });
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { path: 'retries', before: expect.anything(), after: 4 },
        expect.objectContaining({ path: 'welcomeMessage', after: 'Welcome to B' }),
      ]),
    );
    const byAdmin = await call(gw, 'GET', `/api/admin/audit?author=admin-token&app=${appB}`, {
      cookie: viewer.cookie,
    });
    expect(byAdmin.body.entries[0].changes).toEqual([{ path: 'retries', before: 4, after: 5 }]);
    // the invitations, sign-ups and disabling are there too, and reads are not
    const all = await gw.admin('GET', '/api/admin/audit?limit=500');
    const actions = new Set(all.body.entries.map((e: { action: string }) => e.action));
    expect(actions).toContain('POST /api/admin/accounts');
    expect(actions).toContain('POST /api/accounts/invitation');
    expect(actions).toContain('PATCH /api/admin/accounts/:accountId');
    expect([...actions].some((a) => String(a).startsWith('GET '))).toBe(false);
  });

  it('when a viewer sets the retention, then it is refused; an owner sets it and reads it back', async () => {
    expect(
      (await call(gw, 'PUT', '/api/admin/audit/settings', { cookie: viewer.cookie }, { retentionDays: 30 }))
        .status,
    ).toBe(403);
    expect((await gw.admin('PUT', '/api/admin/audit/settings', { retentionDays: 30 })).body).toEqual({
      retentionDays: 30,
    });
    expect((await call(gw, 'GET', '/api/admin/audit/settings', { cookie: viewer.cookie })).body).toEqual({
      retentionDays: 30,
    });
  });

  it('when the OpenAPI document is read, then each operator operation says the role it needs', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { 'x-required-role'?: string; responses: Record<string, unknown> }>
      >;
    };
    expect(doc.paths['/api/admin/apps/{streamId}/agent']!['put']!['x-required-role']).toBe('editor');
    expect(doc.paths['/api/admin/apps/{streamId}/agent']!['get']!['x-required-role']).toBe('viewer');
    expect(doc.paths['/api/admin/accounts']!['post']!['x-required-role']).toBe('owner');
    expect(doc.paths['/api/admin/apps']!['post']!['responses']['403']).toBeDefined();
  });
});
