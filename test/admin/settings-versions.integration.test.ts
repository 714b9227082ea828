/**
 * IVR settings versions over real HTTP on the API stores (memory, Redis): a draft the sandbox uses while calls keep the
 * published settings, publishing it, rolling back, the diff, roles and the audit trail.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';
import { call, makeOperator, type Operator } from '../accounts/operator-kit.js';
import { agentSaying, callLines, eventuallyHears, hear } from './versions-kit.js';

describeEachStore('IVR settings versions', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let streamId: string;
  let callUrl: string;
  let sandboxUrl: string;
  let editor: Operator;
  let viewer: Operator;
  let first: string;
  let draft: string;

  const settingsPath = () => `/api/admin/apps/${streamId}/ivr-settings`;
  const versions = async () =>
    (await call(gw, 'GET', `${settingsPath()}/versions`, { cookie: viewer.cookie })).body;

  // two operators' scrypt hashes and the first training thread: slow on a machine shared by test runs
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, config: { cacheTtlMs: 1 } });
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Settings versions', language: 'en' })).body
      .streamId;
    editor = await makeOperator(gw, 'editor@example.com', [{ role: 'editor' }]);
    viewer = await makeOperator(gw, 'viewer@example.com', [{ role: 'viewer' }]);
    await putAgentAndWait(gw.admin, streamId, agentSaying('The agent speaks'));
    const saved = await call(
      gw,
      'PUT',
      `${settingsPath()}?note=launch`,
      { cookie: editor.cookie },
      { enabled: true, welcomeMessage: 'Published welcome.' },
    );
    expect(saved.status, saved.text).toBe(200);
    ({ callUrl, sandboxUrl } = await callLines(gw, streamId));
    first = (await versions()).published;
  }, 120_000);
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when an editor saves settings as a draft, then calls keep the published settings while the sandbox uses the draft', async () => {
    const saved = await call(
      gw,
      'PUT',
      `${settingsPath()}?publish=false&note=warmer`,
      { cookie: editor.cookie },
      { enabled: true, welcomeMessage: 'Draft welcome.' },
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.welcomeMessage).toBe('Draft welcome.');
    expect((await gw.admin('GET', settingsPath())).body.welcomeMessage).toBe('Published welcome.');
    expect(await hear(gw, callUrl)).toContain('Published welcome.');
    expect(await hear(gw, sandboxUrl)).toContain('Draft welcome.');
    const listed = await versions();
    draft = listed.draft;
    expect(listed.published).toBe(first);
    expect(listed.versions[0]).toMatchObject({
      version: draft,
      savedBy: 'editor@example.com',
      note: 'warmer',
      draft: true,
      published: false,
    });
    expect(listed.versions).toContainEqual(
      expect.objectContaining({ version: first, note: 'launch', published: true }),
    );
  });

  it('when two settings versions are compared, then the diff lists what changed', async () => {
    const diff = await call(gw, 'GET', `${settingsPath()}/versions/diff?from=${first}&to=${draft}`, {
      cookie: viewer.cookie,
    });
    expect(diff.status).toBe(200);
    expect(diff.body.changes).toEqual([
      { path: 'welcomeMessage', before: 'Published welcome.', after: 'Draft welcome.' },
    ]);
    const one = await call(gw, 'GET', `${settingsPath()}/versions/${first}`, { cookie: viewer.cookie });
    expect(one.body.welcomeMessage).toBe('Published welcome.');
  });

  it('when a viewer saves a settings draft or publishes one, then the answer is 403 naming the editor role', async () => {
    const save = await call(
      gw,
      'PUT',
      `${settingsPath()}?publish=false`,
      { cookie: viewer.cookie },
      { enabled: true, welcomeMessage: 'Viewer was here.' },
    );
    const publish = await call(gw, 'POST', `${settingsPath()}/versions/${draft}/publish`, {
      cookie: viewer.cookie,
    });
    for (const r of [save, publish]) {
      expect(r.status).toBe(403);
      expect(r.body.errors[0]).toMatchObject({ code: 'role_required', path: 'role.editor' });
    }
    expect((await versions()).draft).toBe(draft);
  });

  it('when the editor publishes the draft and then rolls back, then calls follow each at once', async () => {
    const published = await call(gw, 'POST', `${settingsPath()}/versions/${draft}/publish`, {
      cookie: editor.cookie,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body.welcomeMessage).toBe('Draft welcome.');
    expect(await eventuallyHears(gw, callUrl, 'Draft welcome.')).toContain('Draft welcome.');
    expect(await versions()).toMatchObject({ published: draft, draft: null });
    const rolledBack = await call(gw, 'POST', `${settingsPath()}/versions/${first}/publish`, {
      cookie: editor.cookie,
    });
    expect(rolledBack.status).toBe(200);
    expect(await eventuallyHears(gw, callUrl, 'Published welcome.')).toContain('Published welcome.');
    expect((await versions()).published).toBe(first);
  });

  it('when settings versions are saved and published, then the audit trail lists each with its author', async () => {
    const entries = (await gw.admin('GET', `/api/admin/audit?app=${streamId}&limit=100`)).body
      .entries as Array<{ action: string; author: { email?: string }; changes: Array<{ path: string }> }>;
    const publishes = entries.filter(
      (e) => e.action === 'POST /api/admin/apps/:streamId/ivr-settings/versions/:version/publish',
    );
    expect(publishes).toHaveLength(2);
    expect(
      publishes.every(
        (e) => e.author.email === 'editor@example.com' && e.changes.some((c) => c.path === 'welcomeMessage'),
      ),
    ).toBe(true);
    const saves = entries.filter(
      (e) =>
        e.action === 'PUT /api/admin/apps/:streamId/ivr-settings' && e.author.email === 'editor@example.com',
    );
    expect(saves).toHaveLength(2);
  });
});
