/**
 * Keys beside transcription, through the project's caller (issue 30, point 2): with transcription on
 * (the sandbox turns it on), "For how many people?" says "say or key in", and keying 4 there books a
 * table for 4. The strict-w3c caller is a grammar-based browser: it has only the digits and boolean
 * builtins and no builtin:speech/transcribe (error.badfetch, quirk 7), so its apps point the
 * transcription engine setting at a dictation grammar, as an operator of such a browser points it at
 * their recogniser's. A local HTTP server stands in for that recogniser (outside the system): its
 * grammar takes any words. The sandbox run keeps the sandbox's own default engine, in lenient mode.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { callHistoryReader, type HistoryMessage } from '../helpers/call-history.js';
import { startDictationRecogniser, type DictationRecogniser } from '../helpers/dictation-recogniser.js';
import { runCall } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';

const lines = (h: HistoryMessage[]) => h.map((m) => `${m.type}:${m.text}`);
const STRICT_DIALECTS = ['w3c', 'cisco-vvb'] as const;

describeEachStore('keys beside transcription (caller)', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let recogniser: DictationRecogniser;
  const apps = new Map<string, { app: IvrApp; historyOf: (callId: string) => Promise<HistoryMessage[]> }>();

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    recogniser = await startDictationRecogniser();
    for (const dialect of STRICT_DIALECTS) {
      const settings = { dialect, transcription: { enabled: true, engine: recogniser.grammarUrl } };
      const app = await setupIvrApp(gw, { name: `Keys ${dialect}`, settings });
      apps.set(dialect, { app, historyOf: await callHistoryReader(gw, app.streamId) });
    }
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await recogniser.close();
    await store.close();
  });

  it.each(STRICT_DIALECTS)(
    'when the caller keys 4 at "For how many people?" with transcription on (%s, strict-w3c), then a table for 4 is booked',
    async (dialect) => {
      const { app, historyOf } = apps.get(dialect)!;
      const settings = await gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-settings`);
      expect(settings.body.transcription.enabled).toBe(true);
      const callId = `c-keys-${factory.name}-${dialect}`;
      const before = recogniser.fetches();
      // words for the intent, keys for the party size, the date (yyyymmdd) and the confirmation (1 = yes)
      const r = await runCall({
        webhookUrl: app.webhookUrl,
        mode: 'strict-w3c',
        callId,
        inputs: ['book a table', '#4', '#20270314', '#1'],
        fetch: gw.docs.fetch(),
        plain: true,
      });
      expect(r.failure ?? r.error).toBeUndefined();
      expect(r.events.map((e) => e.name).filter((n) => n.startsWith('error') || n === 'nomatch')).toEqual([]);
      expect(r.spoken).toContain('For how many people?');
      expect(r.spoken.join(' ')).toContain('Your table for 4 is booked.');
      expect(r.result?.endOfConversation).toBe(true);
      // the words went through the transcription grammar, the keys through the keypad grammars
      expect(recogniser.fetches()).toBeGreaterThan(before);
      const answers = r.submits
        .filter((s) => s.params.inputmode !== undefined)
        .map((s) => [s.params.message, s.params.inputmode, s.params.interpretation]);
      expect(answers).toEqual([
        ['book a table', 'voice', 'book a table'],
        ['4', 'dtmf', '4'],
        ['20270314', 'dtmf', '20270314'],
        ['1', 'dtmf', 'true'],
      ]);
      expect(lines(await historyOf(callId))).toEqual([
        expect.stringMatching(/^outgoing:Welcome to Luigi's/),
        'incoming:book a table',
        'outgoing:For how many people?',
        'incoming:4',
        'outgoing:For which day?',
        'incoming:20270314',
        expect.stringMatching(/^outgoing:A table for 4 on .*2027-03-14.*Shall I book it\?$/),
        'incoming:1',
        expect.stringMatching(/^outgoing:Your table for 4 is booked\./),
      ]);
    },
  );

  it('when a tester keys 4 on the sandbox line (its default transcription on), then a table for 4 is booked', async () => {
    const app = await setupIvrApp(gw, { name: 'Sandbox keys', settings: { enabled: false } });
    const line = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, { enabled: true });
    expect(line.status).toBe(200);
    const settings = await gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-settings`);
    expect(settings.body.transcription).toEqual({ enabled: true, engine: 'builtin:speech/transcribe' });
    const r = await runCall({
      startUrl: `${gw.url}/ivr/sandbox/${encodeURIComponent(line.body.phoneNumber)}`,
      startMethod: 'POST',
      startParams: { from: '+15550004444' },
      pin: line.body.pin,
      secret: line.body.secret,
      mode: 'lenient',
      inputs: ['book a table', '#4', 'tomorrow', '#1'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(r.failure ?? r.error).toBeUndefined();
    expect(r.spoken.join(' ')).not.toContain("Sorry, I didn't get that.");
    expect(r.spoken.join(' ')).toContain('Your table for 4 is booked.');
    expect(r.submits.find((s) => s.params.message === '4')?.params.inputmode).toBe('dtmf');
    expect(r.result?.endOfConversation).toBe(true);
  });
});
