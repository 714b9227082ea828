import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, spokenOf, kindOf } from '../helpers/ivr-call.js';
import { runCall } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';

describeEachStore('browser interop', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  for (const mode of ['strict-w3c', 'lenient'] as const) {
    it(`when a customer root runs the webhook as a subdialog (${mode}), then a whole call completes through the SRGS grammar and DTMF`, async () => {
      const result = await runCall({
        webhookUrl: app.webhookUrl,
        mode,
        inputs: ['book a table', '#4', 'march third', 'yes'],
        fetch: gw.docs.fetch(),
        plain: true,
      });
      const spoken = result.spoken.join(' ');
      expect(result.failure ?? result.error).toBeUndefined();
      expect(spoken).toContain('For how many people?');
      expect(spoken).toContain('is booked');
      expect(result.result?.endOfConversation).toBe(true);
      const intentSubmit = result.submits.find((s) => s.params.message === 'book a table');
      expect(intentSubmit?.params.interpretation).toBe('BookTable');
      // the first document declares the subdialog's params as form variables (a strict browser needs them)
      expect(result.transcript.join('\n')).not.toContain('no matching form <var>');
    });
  }

  it('when a customer root runs the webhook as a subdialog with namelist and POST (strict-w3c), then the call completes', async () => {
    const src = app.webhookUrl.replace(/&/g, '&amp;');
    const root = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">',
      `<var name="callId" expr="'c-namelist-${factory.name}'"/><var name="message" expr="''"/><var name="from" expr="'+15550001111'"/><var name="to" expr="'${app.streamId}'"/>`,
      `<form><subdialog name="bot" src="${src}" method="post" namelist="callId message from to">`,
      '<filled><if cond="bot.endOfConversation == true"><disconnect/></if></filled></subdialog></form></vxml>',
    ].join('');
    const result = await runCall({
      rootDocument: root,
      rootUrl: gw.url,
      mode: 'strict-w3c',
      inputs: ['book a table', '#4', 'march third', 'yes'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(result.failure ?? result.error).toBeUndefined();
    expect(result.spoken.join(' ')).toContain('is booked');
    expect(result.result?.endOfConversation).toBe(true);
    expect(result.submits[0]?.method.toUpperCase()).toBe('POST');
    expect(result.submits[0]?.params.callId).toBe(`c-namelist-${factory.name}`);
  });

  it('when a POST submit carries its parameters in the query string, then the turn is read from there', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    const q = new URLSearchParams({
      callId: call.callId,
      turn: '1.0',
      message: 'book a table',
      interpretation: 'BookTable',
      confidence: '1.0',
      inputmode: 'voice',
    });
    const res = await fetch(`${app.webhookUrl}&${q}`, { method: 'POST' });
    const xml = gw.docs.add(await res.text());
    expect(res.status).toBe(200);
    expect(spokenOf(xml)).toContain('For how many people?');
  });

  it('when a subdialog first fetch is a GET with params in the query, then the call starts', async () => {
    const q = new URLSearchParams({
      callId: 'c-get-first',
      message: '',
      from: '+15550001111',
      to: app.streamId,
    });
    const res = await fetch(`${app.webhookUrl}&${q}`);
    const xml = gw.docs.add(await res.text());
    expect(kindOf(xml)).toBe('ask');
    expect(spokenOf(xml)).toContain("Welcome to Luigi's");
  });

  it('when a browser posts multipart and JSON bodies, then both are read', async () => {
    const form = new FormData();
    form.set('callId', 'c-multipart');
    form.set('message', '');
    const a = await fetch(app.webhookUrl, { method: 'POST', body: form });
    expect(kindOf(gw.docs.add(await a.text()))).toBe('ask');
    const b = await fetch(app.webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ callId: 'c-json', message: '' }),
    });
    expect(kindOf(gw.docs.add(await b.text()))).toBe('ask');
  });

  it('when a browser posts an NLSML result, then the utterance and confidence are read from it', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    const nlsml =
      '<result><interpretation confidence="0.87"><instance>BookTable</instance><input mode="speech">book a table please</input></interpretation></result>';
    const doc = await call.raw({ turn: '1', nlsml });
    expect(spokenOf(doc)).toContain('For how many people?');
  });
});
