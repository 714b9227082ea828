/**
 * A call is a callId within one app: the same callId sent to two apps' webhooks makes two calls,
 * each with its own session, lock, dialog and history. Neither app learns of the other's call (no
 * 409), and neither can take over or squat the other's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { signHs256 } from '../../src/platform/index.js';
import { storeKeys, type Store } from '../../src/store/index.js';

describeEachStore('call sessions keyed per app', 'store', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let appA: IvrApp;
  let appB: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    appA = await setupIvrApp(gw, { name: 'App A' });
    appB = await setupIvrApp(gw, { name: 'App B' });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const historyOf = async (app: IvrApp, callId: string): Promise<string[]> => {
    const client = await gw.admin('POST', `/api/admin/apps/${app.streamId}/api-apps`, {
      name: 'reports',
      scopes: ['chat-history'],
    });
    const auth = signHs256({ appId: client.body.clientId }, client.body.clientSecret);
    const q = new URLSearchParams({ userId: callId, channelType: 'ivr', limit: '100', forward: 'true' });
    const res = await fetch(`${gw.url}/api/public/bot/${app.streamId}/getMessages?${q}`, {
      headers: { auth },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    return body.messages.map((m: any) => `${m.type}:${m.components[0].data.text}`);
  };

  it('when the same callId calls two apps, then each app runs its own call to its end, with its own session and history, and nothing answers 409', async () => {
    const callId = `shared-${Date.now()}`;
    const a = new IvrCall(gw, appA.webhookUrl, '+15550002001', callId);
    const b = new IvrCall(gw, appB.webhookUrl, '+15550002002', callId);
    // the turns of the two calls interleave: each answer belongs to its own dialog
    expect(await a.start()).toContain("Welcome to Luigi's");
    expect(await b.start()).toContain("Welcome to Luigi's");
    expect(a.lastStatus).toBe(200);
    expect(b.lastStatus).toBe(200);
    expect(await a.say('book a table')).toContain('For how many people?');
    expect(await b.say('what are your opening hours')).toContain('Let me check that for you.');
    expect(await a.say('4', { inputmode: 'dtmf' })).toContain('For which day?');
    expect(await a.say('march third')).toMatch(/A table for 4 on/);
    expect(await a.say('yes')).toContain('is booked');
    expect(kindOf(a.last)).toBe('end');
    // A's call ended; B's goes on with its own dialog, from its own turn
    expect(await b.event('continue')).toContain('Is there anything else I can help with?');
    expect(await b.say('book a table')).toContain('For how many people?');
    expect(await b.say('2', { inputmode: 'dtmf' })).toContain('For which day?');
    expect(b.lastStatus).toBe(200);

    const [sa, sb] = await Promise.all([
      gw.gateway.sessions.load(appA.streamId, callId),
      gw.gateway.sessions.load(appB.streamId, callId),
    ]);
    expect(sa?.streamId).toBe(appA.streamId);
    expect(sb?.streamId).toBe(appB.streamId);
    expect(sa?.ended).toBe(true);
    expect(sb?.ended).toBeFalsy();
    expect(sa?.userId).not.toBe(sb?.userId);
    expect(storeKeys.callSession(appA.streamId, callId)).not.toBe(
      storeKeys.callSession(appB.streamId, callId),
    );

    const [ha, hb] = await Promise.all([historyOf(appA, callId), historyOf(appB, callId)]);
    expect(ha).toHaveLength(9);
    expect(ha).toContain('incoming:4');
    expect(ha).not.toContain('incoming:2');
    expect(hb).toContain('incoming:what are your opening hours');
    expect(hb).toContain('incoming:2');
    expect(hb).not.toContain('incoming:4');
  });

  it("when another app's webhook gets a callId that is live in this app, then it starts its own call (no 409) and this app's call is untouched", async () => {
    const callId = `victim-${Date.now()}`;
    const victim = new IvrCall(gw, appA.webhookUrl, '+15550002003', callId);
    await victim.start();
    await victim.say('book a table');
    const before = await gw.gateway.sessions.load(appA.streamId, callId);

    // a later turn, a poll and a first request for the same callId on app B: nothing of A's call shows
    const stranger = new IvrCall(gw, appB.webhookUrl, '+15550002004', callId);
    const later = await stranger.raw({ message: 'yes', turn: '2' });
    expect(stranger.lastStatus).not.toBe(409);
    expect(later).not.toContain('For how many people?');
    await stranger.raw({ event: 'poll', turn: '2' });
    expect(stranger.lastStatus).not.toBe(409);
    const own = new IvrCall(gw, appB.webhookUrl, '+15550002004', callId);
    expect(await own.start()).toContain("Welcome to Luigi's");
    expect(own.lastStatus).toBe(200);

    expect(await gw.gateway.sessions.load(appA.streamId, callId)).toEqual(before);
    expect(await victim.say('4', { inputmode: 'dtmf' })).toContain('For which day?');
  });
});
