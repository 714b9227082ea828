/**
 * The IVR channel secret and the sandbox PIN and secret are shown when they are created and when
 * the operator rotates them, never again: a later PUT of the channel or the sandbox answers
 * without them. A rotation replaces them at once (the old ones no longer work).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signHs256 } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type RunningGateway } from '../helpers/test-gateway.js';

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';

describeEachStore('secrets shown once', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const newApp = async (name: string) =>
    (await gw.admin('POST', '/api/admin/apps', { name })).body.streamId as string;
  const webhookStatus = async (streamId: string, clientId: string, secret: string, callId: string) =>
    (
      await gw.submit(
        `${gw.url}/ivr/hooks/${streamId}?token=${encodeURIComponent(signHs256({ appId: clientId, sub: '+15550001111' }, secret))}`,
        { callId, message: '' },
      )
    ).status;

  it('when the IVR channel is PUT again, then its secret is not in the answer; a rotation shows a new one and the old one is refused', async () => {
    const app = await setupIvrApp(gw, { name: 'Channel' });
    for (const enabled of [true, false, true]) {
      const again = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/channels/ivr`, { enabled });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({
        enabled,
        webhookUrl: `${gw.url}/ivr/hooks/${app.streamId}`,
        clientId: app.clientId,
        allowTokensWithoutExpiry: false,
      });
      expect(JSON.stringify(again.body)).not.toContain(app.clientSecret);
    }
    expect(await webhookStatus(app.streamId, app.clientId, app.clientSecret, 'c-before')).toBe(200);

    const rotated = await gw.admin('POST', `/api/admin/apps/${app.streamId}/channels/ivr/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      enabled: true,
      webhookUrl: `${gw.url}/ivr/hooks/${app.streamId}`,
      clientId: app.clientId,
    });
    expect(rotated.body.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.clientSecret).not.toBe(app.clientSecret);
    expect(await webhookStatus(app.streamId, app.clientId, app.clientSecret, 'c-old')).toBe(401);
    expect(await webhookStatus(app.streamId, app.clientId, rotated.body.clientSecret, 'c-new')).toBe(200);
    expect(
      JSON.stringify(
        (await gw.admin('PUT', `/api/admin/apps/${app.streamId}/channels/ivr`, { enabled: true })).body,
      ),
    ).not.toContain(rotated.body.clientSecret);
  });

  it('when the sandbox is PUT again, then PIN and secret are not in the answer; a rotation shows new ones and the old ones no longer log in', async () => {
    const app = await setupIvrApp(gw, { name: 'Sandbox' });
    const first = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 2,
    });
    expect(first.body).toMatchObject({
      enabled: true,
      pin: expect.stringMatching(/^\d{6}$/),
      secret: expect.stringMatching(/^\d{8}$/),
      maxConcurrentCalls: 2,
    });
    const { phoneNumber, pin, secret } = first.body as { phoneNumber: string; pin: string; secret: string };
    for (const body of [{ enabled: true, maxConcurrentCalls: 3 }, { enabled: false }, { enabled: true }]) {
      const again = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, body);
      expect(again.status).toBe(200);
      expect(Object.keys(again.body).sort()).toEqual([
        'channelSwitchedOn',
        'enabled',
        'maxConcurrentCalls',
        'phoneNumber',
        'settingsChanged',
      ]);
      expect(again.body.maxConcurrentCalls).toBe(3);
    }
    const rotated = await gw.admin('POST', `/api/admin/apps/${app.streamId}/ivr-sandbox/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      enabled: true,
      phoneNumber: expect.stringMatching(/^\+1555/),
      maxConcurrentCalls: 3,
    });
    expect(rotated.body.pin).toMatch(/^\d{6}$/);
    expect(rotated.body.secret).toMatch(/^\d{8}$/);
    expect(`${rotated.body.pin}${rotated.body.secret}`).not.toBe(`${pin}${secret}`);

    const entry = `${gw.url}/ivr/sandbox/${encodeURIComponent(rotated.body.phoneNumber as string)}`;
    const tryLogin = async (callId: string, p: string, s: string) => {
      const doc = (await gw.submit(entry, { from: '+15550004242', callId })).xml;
      return (
        await gw.submit(`${entry}?step=login&callId=${callId}&from=%2B15550004242`, {
          attempt: attemptOf(doc),
          pin: p,
          secret: s,
        })
      ).xml;
    };
    expect(await tryLogin('sb-old', pin, secret)).toContain('did not match');
    expect(await tryLogin('sb-new', rotated.body.pin, rotated.body.secret)).toContain('<subdialog');
    await gw.gateway.sandbox.release(app.streamId, 'sb-new');
    expect(phoneNumber).toBe(rotated.body.phoneNumber);
  });

  it('when the sandbox created the channel, then a later PUT of the channel shows no secret and a rotation gives one', async () => {
    const streamId = await newApp('Sandbox first');
    expect((await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, { enabled: true })).status).toBe(
      200,
    );
    const ch = await gw.admin('PUT', `/api/admin/apps/${streamId}/channels/ivr`, { enabled: true });
    expect(ch.status).toBe(200);
    expect(ch.body.clientSecret).toBeUndefined();
    const rotated = await gw.admin('POST', `/api/admin/apps/${streamId}/channels/ivr/rotate-secret`);
    expect(rotated.body.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('when there is nothing to rotate, then 404', async () => {
    const streamId = await newApp('Nothing yet');
    for (const path of ['channels/ivr/rotate-secret', 'ivr-sandbox/rotate-secret']) {
      const r = await gw.admin('POST', `/api/admin/apps/${streamId}/${path}`);
      expect(r.status, path).toBe(404);
      expect(r.body.errors[0].code).toBe('not_found');
      expect(
        (await gw.admin('POST', `/api/admin/apps/st-00000000-0000-4000-8000-000000000000/${path}`)).status,
      ).toBe(404);
    }
  });

  it('when the OpenAPI document is read, then it lists both rotations with the secrets in their answers', async () => {
    const spec = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, any>>;
    };
    const channel = spec.paths['/api/admin/apps/{streamId}/channels/ivr/rotate-secret']?.post;
    const sandbox = spec.paths['/api/admin/apps/{streamId}/ivr-sandbox/rotate-secret']?.post;
    expect(channel?.responses['200'].content['application/json'].schema.required).toContain('clientSecret');
    expect(sandbox?.responses['200'].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['pin', 'secret']),
    );
    expect(
      spec.paths['/api/admin/apps/{streamId}/channels/ivr']?.put?.responses['200'].content['application/json']
        .schema.required,
    ).not.toContain('clientSecret');
  });
});
