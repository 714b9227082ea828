/**
 * Issue 31 through the project's caller in strict-w3c mode (a grammar-based browser: a field needs
 * a grammar it has, params need form variables): the "leave a message" turn with transcription
 * off, and a refetch of the subdialog src in the middle of a call, with its params.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { callHistoryReader, type HistoryMessage } from '../helpers/call-history.js';
import { runCall } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';

/** An agent whose "leave a message" dialog takes free text (a string entity). */
const messageAgent = {
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  intents: [
    {
      name: 'LeaveMessage',
      dialog: 'message',
      utterances: ['leave a message', 'i want to leave a message', 'take a message', 'can i leave a message'],
    },
    {
      name: 'Hours',
      dialog: 'hours',
      utterances: ['opening hours', 'when are you open', 'what are your hours', 'are you open today'],
    },
  ],
  dialogs: {
    welcome: {
      start: 'hello',
      nodes: { hello: { type: 'message', text: 'Hello. You can leave a message or ask for our hours.' } },
    },
    message: {
      start: 'note',
      nodes: {
        note: {
          type: 'entity',
          prompt: 'Please leave your message after the tone.',
          entity: { name: 'note', type: 'string' },
          next: [{ goto: 'thanks' }],
        },
        thanks: { type: 'end', text: 'Thank you, we got your message. Goodbye.' },
      },
    },
    hours: { start: 'open', nodes: { open: { type: 'end', text: 'We are open from noon. Goodbye.' } } },
    fallback: {
      start: 'sorry',
      nodes: { sorry: { type: 'message', text: 'Sorry, say leave a message or hours.' } },
    },
  },
};

/** A root that runs the webhook with the params also in the subdialog's namelist, so its GET carries them. */
function rootWithParamsInQuery(webhookUrl: string, streamId: string, callId: string): string {
  const src = webhookUrl.replace(/&/g, '&amp;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">',
    `<var name="callId" expr="'${callId}'"/><var name="message" expr="''"/><var name="from" expr="'+15550002222'"/><var name="to" expr="'${streamId}'"/>`,
    `<form><subdialog name="bot" src="${src}" namelist="callId message from to">`,
    `<param name="callId" expr="callId"/><param name="message" expr="message"/><param name="from" expr="from"/><param name="to" expr="to"/>`,
    '<filled><if cond="bot.endOfConversation == true"><disconnect/></if></filled></subdialog></form></vxml>',
  ].join('');
}

const lines = (h: HistoryMessage[]) => h.map((m) => `${m.type}:${m.text}`);

describeEachStore('a grammar-based browser (strict-w3c caller)', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let dialectApp: IvrApp;
  let historyOf: (callId: string) => Promise<HistoryMessage[]>;
  let dialectHistoryOf: (callId: string) => Promise<HistoryMessage[]>;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw, { agent: messageAgent, settings: { transcription: { enabled: false } } });
    // jvoicexml has no transcription grammar at all, even with transcription on
    dialectApp = await setupIvrApp(gw, {
      agent: messageAgent,
      name: 'JVoiceXML line',
      settings: { dialect: 'jvoicexml', transcription: { enabled: true } },
    });
    historyOf = await callHistoryReader(gw, app.streamId);
    dialectHistoryOf = await callHistoryReader(gw, dialectApp.streamId);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it.each(['w3c, transcription off', 'jvoicexml, transcription on'])(
    'when the caller leaves a message (%s), then a <record> takes it, the turn is recorded and the call ends',
    async (which) => {
      const target = which.startsWith('w3c')
        ? { app, historyOf }
        : { app: dialectApp, historyOf: dialectHistoryOf };
      const callId = `c-message-${factory.name}-${which.slice(0, 3)}`;
      const r = await runCall({
        webhookUrl: target.app.webhookUrl,
        mode: 'strict-w3c',
        callId,
        inputs: ['leave a message', 'please call me back about my booking'],
        fetch: gw.docs.fetch(),
        plain: true,
      });
      expect(r.failure ?? r.error).toBeUndefined();
      expect(r.events.map((e) => e.name)).not.toContain('error.semantic');
      expect(r.spoken.join(' ')).toContain('Thank you, we got your message.');
      expect(r.result?.endOfConversation).toBe(true);
      const recorded = r.submits.find((s) => s.params.event === 'recording');
      expect(recorded?.params).toMatchObject({ turn: '2', callId });
      expect(Number(recorded?.params.recording)).toBeGreaterThan(0);
      expect(lines(await target.historyOf(callId))).toEqual([
        expect.stringMatching(/^outgoing:Hello\./),
        'incoming:leave a message',
        'outgoing:Please leave your message after the tone.',
        expect.stringMatching(/^incoming:\(voice message, \d+ s\)$/),
        'outgoing:Thank you, we got your message. Goodbye.',
      ]);
    },
  );

  it('when the browser fetches the subdialog src again mid-call with its params, then the current document declares them and the call goes on', async () => {
    const booking = await setupIvrApp(gw, { name: 'Refetch' });
    const bookingHistory = await callHistoryReader(gw, booking.streamId);
    const callId = `c-refetch-${factory.name}`;
    const root = rootWithParamsInQuery(booking.webhookUrl, booking.streamId, callId);
    // the first run stops at the second question (as a browser whose connection was reset there)
    const first = await runCall({
      rootDocument: root,
      rootUrl: gw.url,
      mode: 'strict-w3c',
      inputs: ['book a table'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(first.failure).toMatch(/inputs ran out.*For how many people/);
    // the same call's subdialog fetched again, its params in the query and as <param>s
    const again = await runCall({
      rootDocument: root,
      rootUrl: gw.url,
      mode: 'strict-w3c',
      inputs: ['#4', 'march third', 'yes'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(again.failure ?? again.error).toBeUndefined();
    expect(again.fetches[0]).toMatchObject({
      kind: 'subdialog',
      method: 'GET',
      params: { callId, message: '', to: booking.streamId },
    });
    expect(again.transcript.join('\n')).not.toContain('no matching form <var>');
    expect(again.spoken[0]).toBe('For how many people?');
    expect(again.result?.endOfConversation).toBe(true);
    const history = lines(await bookingHistory(callId));
    expect(history).toHaveLength(9);
    expect(history.filter((l) => l === 'outgoing:For how many people?')).toHaveLength(1);
  });
});
