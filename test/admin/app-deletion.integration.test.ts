import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { storeKeys, type Store } from '../../src/store/index.js';

describeEachStore('app deletion', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  /** An app with a channel, a sandbox number, an API app, a test suite and a call in its history. */
  async function usedApp(name: string): Promise<{ app: IvrApp; phoneNumber: string; call: IvrCall }> {
    const app = await setupIvrApp(gw, { name });
    const sandbox = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, { enabled: true });
    expect(sandbox.status).toBe(200);
    const suite = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/testsuites/smoke`, {
      utterances: [{ utterance: 'book a table', intent: 'BookTable' }],
    });
    expect(suite.status).toBe(200);
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    expect(kindOf(await call.say('book a table'))).toBe('ask');
    // the call's traces are written in batches after the answers; reading the call through the
    // inspector writes the instance's batch first, so no trace of it lands after a deletion below
    expect((await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls/${call.callId}`)).status).toBe(200);
    return { app, phoneNumber: sandbox.body.phoneNumber as string, call };
  }

  it('when a used app is deleted, then every key kept for it is gone, its number and client id are free, its token is refused, and another app carries on', async () => {
    const gone = await usedApp('Gone');
    const kept = await usedApp('Kept');
    expect(await store.get(storeKeys.sandboxNumber(gone.phoneNumber))).toBe(gone.app.streamId);
    expect(await store.get(storeKeys.ivrChannelByClient(gone.app.clientId))).toBe(gone.app.streamId);

    expect((await gw.admin('DELETE', `/api/admin/apps/${gone.app.streamId}`)).status).toBe(204);

    expect((await gw.admin('GET', `/api/admin/apps/${gone.app.streamId}`)).status).toBe(404);
    expect(
      (await gw.admin('GET', '/api/admin/apps')).body.apps.map((a: { streamId: string }) => a.streamId),
    ).not.toContain(gone.app.streamId);
    // nothing is left in the app's key scope (history, settings, channel, sandbox, suites, agent…)
    expect(await store.deletePrefix(storeKeys.appScope(gone.app.streamId))).toBe(0);
    expect(await store.get(storeKeys.sandboxNumber(gone.phoneNumber))).toBeNull();
    expect(await store.get(storeKeys.ivrChannelByClient(gone.app.clientId))).toBeNull();
    const refused = await gw.submit(gone.app.webhookUrl, {
      callId: 'call-after-deletion',
      message: '',
      from: '+15550001111',
    });
    expect(refused.status).toBe(404);
    expect(kindOf(refused.xml)).toBe('error');
    expect((await gw.admin('DELETE', `/api/admin/apps/${gone.app.streamId}`)).status).toBe(404);

    // the other app, its number and its call are untouched
    expect(await store.get(storeKeys.sandboxNumber(kept.phoneNumber))).toBe(kept.app.streamId);
    expect(kindOf(await kept.call.say('4', { inputmode: 'dtmf', confidence: '1.0' }))).toBe('ask');
    expect((await gw.admin('GET', `/api/admin/apps/${kept.app.streamId}`)).status).toBe(200);
  });

  it('when a deletion stopped half-way (the record gone, the rest still there), then deleting again finishes it', async () => {
    const half = await usedApp('Half');
    await store.del([storeKeys.appRecord(half.app.streamId)]);
    expect((await gw.admin('GET', `/api/admin/apps/${half.app.streamId}`)).status).toBe(404);
    expect((await gw.admin('DELETE', `/api/admin/apps/${half.app.streamId}`)).status).toBe(204);
    expect(await store.deletePrefix(storeKeys.appScope(half.app.streamId))).toBe(0);
    expect(await store.get(storeKeys.sandboxNumber(half.phoneNumber))).toBeNull();
    expect((await gw.admin('DELETE', `/api/admin/apps/${half.app.streamId}`)).status).toBe(404);
  });

  it('when the master key changed since its secrets were sealed, then the app can still be deleted whole', async () => {
    const sealed = await usedApp('Sealed');
    const rotated = await startGateway({ store, config: { masterKey: randomBytes(32) } });
    try {
      expect((await rotated.admin('DELETE', `/api/admin/apps/${sealed.app.streamId}`)).status).toBe(204);
    } finally {
      await rotated.close();
    }
    expect(await store.deletePrefix(storeKeys.appScope(sealed.app.streamId))).toBe(0);
    expect(await store.get(storeKeys.sandboxNumber(sealed.phoneNumber))).toBeNull();
    expect(await store.get(storeKeys.ivrChannelByClient(sealed.app.clientId))).toBeNull();
  });

  it('when one of its test runs is active, then the deletion is refused with 409 and nothing is deleted', async () => {
    const busy = await usedApp('Busy');
    const member = `${busy.app.streamId}|run-in-progress`;
    await store.atomic([{ op: 'sadd', key: storeKeys.testRunsActive(), member }]);
    try {
      const refused = await gw.admin('DELETE', `/api/admin/apps/${busy.app.streamId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('conflict');
      expect((await gw.admin('GET', `/api/admin/apps/${busy.app.streamId}`)).status).toBe(200);
      expect(await store.get(storeKeys.sandboxNumber(busy.phoneNumber))).toBe(busy.app.streamId);
      expect(kindOf(await busy.call.say('4', { inputmode: 'dtmf', confidence: '1.0' }))).toBe('ask');
    } finally {
      await store.atomic([{ op: 'srem', key: storeKeys.testRunsActive(), member }]);
    }
    expect((await gw.admin('DELETE', `/api/admin/apps/${busy.app.streamId}`)).status).toBe(204);
  });
});
