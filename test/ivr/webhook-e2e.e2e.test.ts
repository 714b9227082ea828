import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf, spokenOf } from '../helpers/ivr-call.js';
import { signHs256 } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';

describeEachStore('IVR webhook end to end', 'store', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw, { settings: { retries: 2 } });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when a call goes from welcome to the end through urlencoded submits, then every document is the right kind and the call ends with endOfConversation', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    const welcome = await call.start();
    expect(kindOf(welcome)).toBe('ask');
    expect(spokenOf(welcome)).toContain("Welcome to Luigi's");
    expect(call.turn).toBe('1');
    const size = await call.say('i want to book a table');
    expect(spokenOf(size)).toContain('For how many people?');
    const date = await call.say('4', { inputmode: 'dtmf', confidence: '1.0' });
    expect(spokenOf(date)).toContain('For which day?');
    const confirm = await call.say('tomorrow');
    expect(spokenOf(confirm)).toMatch(/A table for 4 on/);
    const end = await call.say('yes please');
    expect(kindOf(end)).toBe('end');
    expect(end).toContain('namelist="endOfConversation callId"');
    expect(spokenOf(end)).toContain('is booked');
  });

  it('when the caller gives a low-confidence answer, then the agent asks for confirmation', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('book a table');
    const confirm = await call.say('four', { confidence: '0.41' });
    expect(spokenOf(confirm)).toContain('Did you say 4?');
    const date = await call.say('yes');
    expect(spokenOf(date)).toContain('For which day?');
  });

  it('when the document reports maxretries, then the behaviour on exceeding retries ends the call', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('book a table');
    const doc = await call.event('maxretries');
    expect(['end', 'error']).toContain(kindOf(doc));
  });

  it('when the ask document is rendered, then its retries follow the settings and the node override', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    const welcome = await call.start();
    expect(welcome).toMatch(/<catch event="noinput nomatch"/);
    const size = await call.say('book a table');
    expect(size).toContain('Please say or key in the number of people.');
  });

  it('when an utterance does not parse as the entity, then it is re-asked with the no-match prompt', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('book a table');
    const again = await call.say('purple elephants');
    expect(kindOf(again)).toBe('ask');
    expect(spokenOf(again)).toMatch(/how many people/i);
  });

  it('when a turn is submitted twice, then the same document comes back and the dialog does not advance', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    const params = {
      turn: '1',
      message: 'book a table',
      interpretation: 'book a table',
      confidence: '0.9',
      inputmode: 'voice',
      from: call.from,
    };
    const first = await call.raw(params);
    const second = await call.raw(params);
    expect(second).toBe(first);
    expect(call.turn).toBe('2');
  });

  it('when two submits of one call arrive at once, then both get the same answer', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    const params = {
      turn: '1',
      message: 'book a table',
      interpretation: 'book a table',
      confidence: '0.9',
      inputmode: 'voice',
    };
    const url = app.webhookUrl;
    const [a, b] = await Promise.all([
      gw.submit(url, { callId: call.callId, ...params }),
      gw.submit(url, { callId: call.callId, ...params }),
    ]);
    expect(a.status).toBe(200);
    expect(b.xml).toBe(a.xml);
    expect(spokenOf(a.xml)).toContain('For how many people?');
  });

  it('when the token is signed with another secret, then 401 with a VoiceXML body', async () => {
    const forged = signHs256({ appId: app.clientId }, 'not-the-channel-secret');
    const r = await gw.submit(`${gw.url}/ivr/hooks/${app.streamId}?token=${forged}`, {
      callId: 'c-forged',
      message: '',
    });
    expect(r.status).toBe(401);
    expect(r.xml).toContain('<vxml');
    expect(r.xml).toContain("'unauthorized'");
  });

  it('when the first fetch carries no callId, then the bootstrap document declares the params and submits them', async () => {
    const res = await fetch(app.webhookUrl);
    const xml = await res.text();
    gw.docs.add(xml);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/voicexml+xml');
    expect(xml).toMatch(/namelist="callId message from to"/);
  });

  it('when a later request has no callId, then 400 with a VoiceXML error document', async () => {
    const r = await gw.submit(app.webhookUrl, { turn: '3', message: 'hello' });
    expect(r.status).toBe(400);
    expect(r.xml).toContain("'bad_request'");
  });

  it('when the app is unknown, then 404 with a VoiceXML body', async () => {
    const r = await gw.submit(
      `${gw.url}/ivr/hooks/st-00000000-0000-4000-8000-000000000000?token=${app.token}`,
      { callId: 'x', message: '' },
    );
    expect(r.status).toBe(404);
    expect(r.xml).toContain('<vxml');
  });

  it('when hostile text is said, then the document structure is unchanged and valid', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('book a table');
    await call.say('4');
    const hostile = await call.say(`</prompt><goto next="http://evil"/>'; x(); ' & ]]> \uD800`);
    expect(hostile).not.toContain('http://evil"/>');
    expect(kindOf(hostile)).toBe('ask');
  });
});
