/**
 * Agent versions over real HTTP on the API stores (memory, Redis): a draft that the sandbox hears while calls hear the
 * published version, publishing it, rolling back, the diff, roles (viewers read, editors change),
 * the audit trail, the version a batch test run names, and a viewer's read-only console token.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { waitUntilAgentTrained } from '../helpers/agent-upload.js';
import { call, makeOperator, type Operator } from '../accounts/operator-kit.js';
import {
  agentSaying,
  callLines,
  eventuallyHears as heardOnce,
  hear as heard,
  sleep,
} from './versions-kit.js';

describeEachStore('agent versions', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let streamId: string;
  let callUrl: string;
  let sandboxUrl: string;
  let editor: Operator;
  let viewer: Operator;
  let v1: string;
  let v2: string;
  let lastRun = '';

  const agentPath = () => `/api/admin/apps/${streamId}/agent`;
  const hear = (url: string) => heard(gw, url);
  const eventuallyHears = (url: string, text: string) => heardOnce(gw, url, text);
  const saveAs = async (who: Operator, agent: unknown, query: string) => {
    const r = await call(gw, 'PUT', `${agentPath()}${query}`, { cookie: who.cookie }, agent);
    expect(r.status, r.text).toBe(202);
    const status = await waitUntilAgentTrained(gw.admin, streamId);
    expect(status.state).toBe('ready');
    return r.body.latestVersion as string;
  };

  // two operators' scrypt hashes and the first training thread: slow on a machine shared by test runs
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({
      store,
      config: { cacheTtlMs: 1 },
      options: { sandbox: { lineTtlMs: 60_000 } },
    });
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Versions', language: 'en' })).body
      .streamId;
    editor = await makeOperator(gw, 'editor@example.com', [{ role: 'editor' }]);
    viewer = await makeOperator(gw, 'viewer@example.com', [{ role: 'viewer' }]);
    v1 = await saveAs(editor, agentSaying('Version one speaking'), '?note=first');
    expect(
      (await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, { enabled: true })).status,
    ).toBe(200);
    ({ callUrl, sandboxUrl } = await callLines(gw, streamId));
  }, 120_000);
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when an editor saves a draft, then calls still hear the published version while the sandbox hears the draft', async () => {
    v2 = await saveAs(editor, agentSaying('Version two speaking'), '?publish=false&note=friendlier');
    const status = (await gw.admin('GET', `${agentPath()}/status`)).body;
    expect(status).toMatchObject({ state: 'ready', liveVersion: v1, draftVersion: v2, latestVersion: v2 });
    expect(await hear(callUrl)).toContain('Version one speaking');
    expect(await hear(sandboxUrl)).toContain('Version two speaking');
    const listed = await call(gw, 'GET', `${agentPath()}/versions`, { cookie: viewer.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ published: v1, draft: v2 });
    expect(listed.body.versions).toEqual([
      expect.objectContaining({
        version: v2,
        savedBy: 'editor@example.com',
        note: 'friendlier',
        draft: true,
        published: false,
      }),
      expect.objectContaining({
        version: v1,
        savedBy: 'editor@example.com',
        note: 'first',
        draft: false,
        published: true,
      }),
    ]);
    const definition = await call(gw, 'GET', `${agentPath()}/versions/${v1}`, { cookie: viewer.cookie });
    expect(definition.status).toBe(200);
    expect(JSON.stringify(definition.body)).toContain('Version one speaking');
    expect(JSON.stringify(definition.body)).not.toContain('Version two speaking');
  });

  it('when two versions are compared, then the diff lists what changed and nothing else', async () => {
    const diff = await call(gw, 'GET', `${agentPath()}/versions/diff?from=${v1}&to=${v2}`, {
      cookie: viewer.cookie,
    });
    expect(diff.status).toBe(200);
    expect(diff.body).toMatchObject({ from: v1, to: v2, truncated: false });
    expect(diff.body.changes).toEqual([
      {
        path: expect.stringMatching(/\.text$/),
        before: 'Version one speaking',
        after: 'Version two speaking',
      },
    ]);
    expect(
      (
        await call(gw, 'GET', `${agentPath()}/versions/diff?from=${v1}&to=0000000000000000`, {
          cookie: viewer.cookie,
        })
      ).status,
    ).toBe(404);
  });

  it('when a viewer saves or publishes, then the answer is 403 naming the editor role and nothing changes', async () => {
    const save = await call(
      gw,
      'PUT',
      `${agentPath()}?publish=false`,
      { cookie: viewer.cookie },
      agentSaying('Viewer was here'),
    );
    const publish = await call(gw, 'POST', `${agentPath()}/versions/${v2}/publish`, {
      cookie: viewer.cookie,
    });
    for (const r of [save, publish]) {
      expect(r.status).toBe(403);
      expect(r.body.errors[0]).toMatchObject({ code: 'role_required', path: 'role.editor' });
    }
    expect((await gw.admin('GET', `${agentPath()}/status`)).body).toMatchObject({
      liveVersion: v1,
      draftVersion: v2,
    });
  });

  it('when the editor publishes the draft, then calls hear it at once', async () => {
    const r = await call(gw, 'POST', `${agentPath()}/versions/${v2}/publish`, { cookie: editor.cookie });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ state: 'ready', liveVersion: v2 });
    expect(await eventuallyHears(callUrl, 'Version two speaking')).toContain('Version two speaking');
    expect(await hear(sandboxUrl)).toContain('Version two speaking');
  });

  it('when the editor rolls back to the earlier version, then it trains and calls hear it again', async () => {
    const r = await call(gw, 'POST', `${agentPath()}/versions/${v1}/publish`, { cookie: editor.cookie });
    expect([200, 202]).toContain(r.status);
    const status = await waitUntilAgentTrained(gw.admin, streamId);
    expect(status).toMatchObject({ state: 'ready', liveVersion: v1 });
    expect(await eventuallyHears(callUrl, 'Version one speaking')).toContain('Version one speaking');
    const listed = (await gw.admin('GET', `${agentPath()}/versions`)).body;
    expect(listed.published).toBe(v1);
    expect(
      await call(gw, 'POST', `${agentPath()}/versions/0123456789abcdef/publish`, { cookie: editor.cookie }),
    ).toMatchObject({ status: 404 });
  });

  it("when the app's settings say the sandbox answers from the published version, then a draft is heard nowhere", async () => {
    await saveAs(editor, agentSaying('Version three speaking'), '?publish=false');
    expect(await hear(sandboxUrl)).toContain('Version three speaking');
    const patched = await call(
      gw,
      'PATCH',
      `/api/admin/apps/${streamId}/ivr-settings`,
      { cookie: editor.cookie },
      { sandboxAnswersFrom: 'published' },
    );
    expect(patched.status, patched.text).toBe(200);
    expect(await eventuallyHears(sandboxUrl, 'Version one speaking')).toContain('Version one speaking');
    expect(await hear(callUrl)).toContain('Version one speaking');
    await call(
      gw,
      'PATCH',
      `/api/admin/apps/${streamId}/ivr-settings`,
      { cookie: editor.cookie },
      { sandboxAnswersFrom: 'draft' },
    );
  });

  it('when versions are saved and published, then the audit trail lists each change with its author', async () => {
    const audit = (await gw.admin('GET', `/api/admin/audit?app=${streamId}&limit=100`)).body
      .entries as Array<{ action: string; author: { email?: string }; changes: unknown[] }>;
    const publishes = audit.filter(
      (e) => e.action === 'POST /api/admin/apps/:streamId/agent/versions/:version/publish',
    );
    const saves = audit.filter((e) => e.action === 'PUT /api/admin/apps/:streamId/agent');
    expect(publishes).toHaveLength(2);
    expect(saves.length).toBeGreaterThanOrEqual(3);
    for (const e of [...publishes, ...saves]) expect(e.author.email).toBe('editor@example.com');
    expect(publishes.every((e) => e.changes.length > 0)).toBe(true);
  });

  it('when a batch test run names no version, then it tests the one the sandbox answers from and names it', async () => {
    const suite = await gw.admin('PUT', `/api/admin/apps/${streamId}/testsuites/smoke`, {
      utterances: [{ utterance: 'hello', intent: 'None' }],
    });
    expect(suite.status).toBe(200);
    const draft = (await gw.admin('GET', `${agentPath()}/status`)).body.draftVersion as string;
    const token = (await call(gw, 'POST', `/api/console/apps/${streamId}/token`, { cookie: editor.cookie }))
      .body.token as string;
    const run = async (body: unknown) => {
      const res = await fetch(`${gw.url}/api/public/bot/${streamId}/testsuite/smoke/run`, {
        method: 'POST',
        headers: { auth: token, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { _id: string; agentVersion?: string; runType: string };
      expect(res.status, JSON.stringify(json)).toBe(202);
      for (let i = 0; i < 200; i++) {
        const st = await fetch(`${gw.url}/api/public/bot/${streamId}/testsuite/smoke/${json._id}/status`, {
          headers: { auth: token },
        });
        const view = (await st.json()) as { status: string; result: { agentVersion?: string } };
        if (view.status !== 'running') return { accepted: json, finished: view };
        await sleep(25);
      }
      throw new Error('the run did not end');
    };
    const byDefault = await run({});
    expect(byDefault.accepted).toMatchObject({ agentVersion: draft, runType: 'inDevelopment' });
    expect(byDefault.finished.result.agentVersion).toBe(draft);
    const published = await run({ runType: 'published' });
    expect(published.accepted).toMatchObject({ agentVersion: v1, runType: 'published' });
    lastRun = published.accepted._id;
  });

  it("when a viewer's console token is used to change something, then the public API refuses it with 403 while reads pass", async () => {
    const issued = await call(gw, 'POST', `/api/console/apps/${streamId}/token`, { cookie: viewer.cookie });
    expect(issued.status).toBe(201);
    expect(issued.body.access).toBe('read');
    const headers = { auth: issued.body.token as string, 'Content-Type': 'application/json' };
    const write = await fetch(`${gw.url}/api/public/bot/${streamId}/testsuite/smoke/run`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(write.status).toBe(403);
    const insert = await fetch(`${gw.url}/api/public/tables/anything`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ a: 1 }),
    });
    expect(insert.status).toBe(403);
    const read = await fetch(`${gw.url}/api/public/bot/${streamId}/getMessages?userId=someone`, {
      headers: { auth: headers.auth },
    });
    expect(read.status).toBe(200);
    // the history's body form reads too
    const readByPost = await fetch(`${gw.url}/api/public/bot/${streamId}/getMessages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ userId: 'someone' }),
    });
    expect(readByPost.status).toBe(200);
    const status = await fetch(`${gw.url}/api/public/stream/${streamId}/testsuite/smoke/${lastRun}/status`, {
      headers: { auth: headers.auth },
    });
    expect(status.status).toBe(200);
    const editors = await call(gw, 'POST', `/api/console/apps/${streamId}/token`, { cookie: editor.cookie });
    expect(editors.body.access).toBe('write');
  });
});
