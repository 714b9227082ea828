/**
 * IVR settings that do what they say: `enabled: false` stops calls, an app that never saved
 * settings takes calls with the defaults, `log` writes each turn's words to the service log.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  createModelConnection,
  importSkillGroup,
  setupIvrApp,
  startGateway,
  type RunningGateway,
} from '../helpers/test-gateway.js';
import { IvrCall, kindOf, spokenOf } from '../helpers/ivr-call.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';
import { demoAgentWith } from '../../src/agent/index.js';
import { signHs256 } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';

/** An app with an agent and a channel whose settings were never saved. */
async function appWithoutSettings(gw: RunningGateway): Promise<{ streamId: string; webhookUrl: string }> {
  const streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'No settings', language: 'en' })).body
    .streamId as string;
  await importSkillGroup(gw, streamId, 'sg-reservations', 'Reservations');
  await putAgentAndWait(gw.admin, streamId, demoAgentWith(await createModelConnection(gw)));
  const ch = (await gw.admin('PUT', `/api/admin/apps/${streamId}/channels/ivr`, { enabled: true })).body;
  const token = signHs256({ appId: ch.clientId, sub: '+15550001111' }, ch.clientSecret, 3600);
  return { streamId, webhookUrl: `${ch.webhookUrl}?token=${encodeURIComponent(token)}` };
}

describeEachStore('IVR settings that do what they say', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;

  beforeAll(async () => {
    store = await factory.make();
    // no settings cache: a change is seen by the next request
    gw = await startGateway({ store, config: { cacheTtlMs: 0 } });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when an app never saved settings, then GET shows the defaults with calls enabled and a call runs', async () => {
    const app = await appWithoutSettings(gw);
    const settings = await gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-settings`);
    expect(settings.body).toMatchObject({
      enabled: true,
      retries: 3,
      log: false,
      dialect: 'w3c',
      transcription: { enabled: false },
    });
    const call = new IvrCall(gw, app.webhookUrl);
    const welcome = await call.start();
    expect(call.lastStatus).toBe(200);
    expect(kindOf(welcome)).toBe('ask');
  });

  it('when the settings are saved with enabled false, then a new call and a call under way get 503 and a document saying the service is not available', async () => {
    const app = await setupIvrApp(gw, { name: 'Switched off' });
    const going = new IvrCall(gw, app.webhookUrl);
    await going.start();
    expect(
      (await gw.admin('PATCH', `/api/admin/apps/${app.streamId}/ivr-settings`, { enabled: false })).status,
    ).toBe(200);

    const fresh = new IvrCall(gw, app.webhookUrl);
    const refused = await fresh.start();
    expect(fresh.lastStatus).toBe(503);
    expect(kindOf(refused)).toBe('error');
    expect(spokenOf(refused)).toContain('this service is not available');
    expect(refused).toContain("'service_disabled'");
    const bootstrap = await fetch(app.webhookUrl);
    expect(bootstrap.status).toBe(503);
    expect(bootstrap.headers.get('content-type')).toContain('application/voicexml+xml');
    gw.docs.add(await bootstrap.text());

    const next = await going.say('book a table');
    expect(going.lastStatus).toBe(503);
    expect(next).toContain("'service_disabled'");
    // the caller hanging up still ends the call
    await going.event('hangup', { turn: '' });
    expect(going.lastStatus).toBe(200);

    expect(
      (await gw.admin('PATCH', `/api/admin/apps/${app.streamId}/ivr-settings`, { enabled: true })).status,
    ).toBe(200);
    const again = new IvrCall(gw, app.webhookUrl);
    expect(kindOf(await again.start())).toBe('ask');
    expect(again.lastStatus).toBe(200);
  });

  it('when a bad token reaches a switched-off app, then it is still refused as unauthorized, not told the app is off', async () => {
    const app = await setupIvrApp(gw, { name: 'Off and guarded', settings: { enabled: false } });
    const forged = signHs256({ appId: app.clientId }, 'not-the-secret');
    const r = await gw.submit(`${gw.url}/ivr/hooks/${app.streamId}?token=${forged}`, {
      callId: 'c-x',
      message: '',
    });
    expect(r.status).toBe(401);
  });

  const patch = async (streamId: string, body: unknown, contentType = 'application/merge-patch+json') => {
    const res = await fetch(`${gw.url}/api/admin/apps/${streamId}/ivr-settings`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${gw.config.adminToken}`, 'Content-Type': contentType },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const newApp = async (name: string) =>
    (await gw.admin('POST', '/api/admin/apps', { name })).body.streamId as string;
  const get = async (streamId: string) =>
    (await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-settings`)).body;

  it('when a partial PUT is sent, then what it leaves out takes its default, except enabled, which stays as it was', async () => {
    const id = await newApp('Put replaces');
    await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      enabled: false,
      welcomeMessage: 'Hello',
      retries: 5,
    });
    const put = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, { retries: 2 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ enabled: false, retries: 2 });
    expect(put.body.welcomeMessage).toBeUndefined();
    expect(await get(id)).toEqual(put.body);
    const on = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, retries: 3 });
  });

  it('when an app is switched off by PATCH and then sent a PUT without enabled, then it stays off and calls are still refused', async () => {
    const app = await setupIvrApp(gw, { name: 'Stays off' });
    expect((await patch(app.streamId, { enabled: false })).body.enabled).toBe(false);
    const put = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-settings`, { retries: 3 });
    expect(put.status).toBe(200);
    expect(put.body.enabled).toBe(false);
    expect((await get(app.streamId)).enabled).toBe(false);
    const call = new IvrCall(gw, app.webhookUrl);
    const refused = await call.start();
    expect(call.lastStatus).toBe(503);
    expect(refused).toContain("'service_disabled'");
  });

  it('when a merge patch is sent (merge-patch+json or json), then only its members change, nested groups merge, and GET shows the effective values', async () => {
    const id = await newApp('Patch merges');
    await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      enabled: false,
      welcomeMessage: 'Hello',
      standardResponses: { noInput: 'Hm?' },
      vxmlProperties: { 'com.acme.tag': 'a' },
    });
    const a = await patch(id, {
      retries: 5,
      standardResponses: { noMatch: 'Pardon?' },
      vxmlProperties: { bargein: true },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      enabled: false,
      welcomeMessage: 'Hello',
      retries: 5,
      standardResponses: { noInput: 'Hm?', noMatch: 'Pardon?', goodbye: 'Goodbye.' },
    });
    expect(a.body.vxmlProperties).toEqual({
      timeout: '5s',
      bargein: true,
      fetchtimeout: '10s',
      'com.acme.tag': 'a',
    });
    const b = await patch(id, { dialect: 'cisco-vvb' }, 'application/json');
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ enabled: false, retries: 5, dialect: 'cisco-vvb' });
    expect(await get(id)).toEqual(b.body);
  });

  it('when a patch member is null, then that member is removed and takes its default', async () => {
    const id = await newApp('Patch nulls');
    await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      enabled: false,
      welcomeMessage: 'Hello',
      retries: 7,
      standardResponses: { noInput: 'Hm?' },
      vxmlProperties: { 'com.acme.tag': 'a', timeout: '9s' },
    });
    const r = await patch(id, {
      enabled: null,
      welcomeMessage: null,
      retries: null,
      standardResponses: { noInput: null },
      vxmlProperties: { 'com.acme.tag': null, timeout: null },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      enabled: true,
      retries: 3,
      standardResponses: { noInput: "Sorry, I didn't hear anything." },
    });
    expect(r.body.welcomeMessage).toBeUndefined();
    expect(r.body.vxmlProperties).toEqual({ timeout: '5s', bargein: false, fetchtimeout: '10s' });
  });

  it('when a patch has unknown members or bad values, then 400 names each at its JSON path and nothing changes', async () => {
    const id = await newApp('Patch refuses');
    const before = (await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, { retries: 4 })).body;
    const r = await patch(id, {
      lgo: true,
      loq: null,
      retries: 11,
      standardResponses: { nope: 'x' },
      vxmlProperties: { timout: null },
      onExceedingRetries: { action: 'jumpToNode' },
    });
    expect(r.status).toBe(400);
    const paths = r.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(
      [
        'body.loq',
        'body.lgo',
        'body.retries',
        'body.standardResponses.nope',
        'body.vxmlProperties.timout',
      ].sort(),
    );
    // a patch that is valid on its own but makes invalid settings: refused at the member's path
    const switched = await patch(id, { onExceedingRetries: { action: 'jumpToNode' } });
    expect(switched.status).toBe(400);
    expect(switched.body.errors.map((e: { path: string }) => e.path)).toContain(
      'body.onExceedingRetries.node',
    );
    for (const body of [null, [], 'x', 3]) {
      const bad = await patch(id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.errors[0].path).toBe('body');
    }
    const wrongType = await fetch(`${gw.url}/api/admin/apps/${id}/ivr-settings`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${gw.config.adminToken}`, 'Content-Type': 'text/plain' },
      body: '{"retries":2}',
    });
    expect(wrongType.status).toBe(415);
    expect(await get(id)).toEqual(before);
  });

  it('when many patches of different members arrive at once, then every one of them is kept', async () => {
    const id = await newApp('Patch race');
    await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, { retries: 2 });
    const n = 12;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => patch(id, { vxmlProperties: { [`com.race.p${i}`]: `v${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
    const props = (await get(id)).vxmlProperties as Record<string, string>;
    for (let i = 0; i < n; i++) expect(props[`com.race.p${i}`]).toBe(`v${i}`);
    expect((await get(id)).retries).toBe(2);
  });

  it('when log is true, then each turn writes the caller words and the prompt to the log at info; when false, nothing of them', async () => {
    const quiet = await setupIvrApp(gw, { name: 'Quiet' });
    const loud = await setupIvrApp(gw, { name: 'Loud', settings: { log: true } });
    const lines = () =>
      gw.log.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'turn transcript');
    const before = lines().length;

    const q = new IvrCall(gw, quiet.webhookUrl);
    await q.start();
    await q.say('a quiet booking of a table');
    expect(lines().filter((l) => l.app === quiet.streamId)).toEqual([]);

    const c = new IvrCall(gw, loud.webhookUrl);
    await c.start();
    await c.say('i would like to book a table');
    const mine = lines()
      .slice(before)
      .filter((l) => l.app === loud.streamId);
    expect(mine).toHaveLength(2);
    expect(mine[1]).toMatchObject({
      level: 30,
      callId: c.callId,
      heard: 'i would like to book a table',
      action: 'ask',
    });
    expect(String(mine[1]!.said)).toContain('For how many people?');
    expect(String(mine[0]!.said)).toContain("Welcome to Luigi's");
    expect(JSON.stringify(mine)).not.toContain(loud.token);
  });
});
