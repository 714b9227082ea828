import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf, spokenOf } from '../helpers/ivr-call.js';
import { signHs256 } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';

const callbackAgent = {
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  intents: [
    {
      name: 'Callback',
      dialog: 'callback',
      utterances: [
        'call me back',
        'please call me back later',
        'i want a callback',
        'can someone ring me back',
        'request a call back',
      ],
    },
    {
      name: 'Hours',
      dialog: 'fallback',
      utterances: [
        'what are your hours',
        'when are you open',
        'opening times',
        'are you open today',
        'what time do you close',
      ],
    },
  ],
  dialogs: {
    welcome: { start: 'hi', nodes: { hi: { type: 'message', text: 'Hello. How can I help?' } } },
    callback: {
      start: 'save',
      nodes: {
        save: {
          type: 'table',
          table: 'callbacks',
          record: { phone: '{{context.from}}', reason: '{{session.BotUserSession.lastMessage.text}}' },
          next: [{ goto: 'handoff' }],
        },
        handoff: {
          type: 'transfer',
          text: 'I noted your callback request. Let me put you through to reservations now.',
          destination: 'tel:+15550100',
          skillGroupId: 'sg-reservations',
        },
      },
    },
    fallback: {
      start: 'sorry',
      nodes: { sorry: { type: 'message', text: 'Sorry, I can only arrange callbacks.' } },
    },
  },
};

describeEachStore('IVR call that records a callback and transfers to a skill group', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw, { agent: callbackAgent });
    const def = await gw.admin('PUT', '/api/admin/tables/callbacks', {
      columns: [
        { name: 'phone', type: 'string', required: true, unique: true, maxLength: 32 },
        { name: 'reason', type: 'string', maxLength: 500 },
      ],
      access: { [app.streamId]: { read: true, write: true } },
    });
    expect(def.status).toBe(200);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when the caller asks for a callback, then a row is written and the transfer carries the skill group in aai', async () => {
    const from = `+1555${Math.floor(Math.random() * 1e7)
      .toString()
      .padStart(7, '0')}`;
    const call = new IvrCall(gw, app.webhookUrl, from);
    await call.start();
    const doc = await call.say('please call me back');
    expect(kindOf(doc)).toBe('transfer');
    expect(spokenOf(doc)).toContain('I noted your callback request');
    expect(doc).toContain('dest="tel:+15550100"');
    expect(doc).toContain('aai="skillGroupId=sg-reservations;skillGroupName=Reservations"');

    // the row exists: the same phone on the unique column is now refused
    const client = await gw.admin('POST', `/api/admin/apps/${app.streamId}/api-apps`, {
      name: 't',
      scopes: ['tables'],
    });
    const res = await fetch(`${gw.url}/api/public/tables/callbacks`, {
      method: 'POST',
      headers: {
        auth: signHs256({ appId: client.body.clientId }, client.body.clientSecret),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ data: { phone: from, reason: 'again' } }),
    });
    expect(res.status).toBe(409);

    const after = await call.event('transfer', { transferResult: 'noanswer' });
    expect(['ask', 'end', 'error']).toContain(kindOf(after));
  });
});
