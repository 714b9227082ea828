/**
 * Issue 37 through the project's caller, in lenient mode (the sandbox's transcription) and in
 * strict-w3c mode (a grammar-based browser whose transcription engine is a recogniser's dictation
 * grammar, a local server standing in for it): the agent confirms an intent (yes, no, no input),
 * asks which of two intents the caller meant, and falls back on what it does not understand; the
 * trace and history say why. Every document the caller got is checked against the VoiceXML schema.
 *
 * The questions do not hang on the recognizer's scores: RefillPrescription confirms always, and the
 * "choose" agent's margin of 1 asks between the two best intents whenever both have a confidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { callHistoryReader, type HistoryMessage } from '../helpers/call-history.js';
import { startDictationRecogniser, type DictationRecogniser } from '../helpers/dictation-recogniser.js';
import { runCall } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';

const end = (text: string) => ({ start: 'say', nodes: { say: { type: 'end', text } } });

const pharmacy = (nlu: Record<string, unknown>) => ({
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  nlu,
  intents: [
    {
      name: 'RefillPrescription',
      dialog: 'refill',
      confirm: 'always',
      utterances: ['refill my prescription', 'i need a refill', 'renew my medication'],
    },
    {
      name: 'StoreHours',
      dialog: 'hours',
      label: 'hear the store hours',
      utterances: ['what are your store hours', 'when are you open', 'opening hours'],
    },
  ],
  dialogs: {
    welcome: {
      start: 'hi',
      nodes: { hi: { type: 'message', text: 'Welcome to the pharmacy. How can I help?' } },
    },
    fallback: {
      start: 'sorry',
      nodes: {
        sorry: { type: 'message', text: 'Sorry, I can refill a prescription or tell you our hours.' },
      },
    },
    refill: end('Refilling your prescription. Goodbye.'),
    hours: end('We open at nine. Goodbye.'),
  },
});

const MODES = ['lenient', 'strict-w3c'] as const;
type Mode = (typeof MODES)[number];
interface Line {
  app: IvrApp;
  historyOf: (callId: string) => Promise<HistoryMessage[]>;
}

describeEachStore('confirmation and disambiguation of intents (caller)', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let recogniser: DictationRecogniser;
  const lines = new Map<string, Line>();
  let n = 0;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    recogniser = await startDictationRecogniser();
    for (const mode of MODES) {
      // transcription on: with it off, the browser's intent grammar names the intent (no question, below)
      const settings =
        mode === 'strict-w3c'
          ? { dialect: 'w3c', transcription: { enabled: true, engine: recogniser.grammarUrl } }
          : { transcription: { enabled: true } };
      for (const [kind, agent] of [
        ['confirm', pharmacy({ threshold: 0.3 })],
        ['choose', pharmacy({ threshold: 0.3, margin: 1 })],
      ] as const) {
        const app = await setupIvrApp(gw, { name: `Pharmacy ${kind} ${mode}`, agent, settings });
        lines.set(`${kind} ${mode}`, { app, historyOf: await callHistoryReader(gw, app.streamId) });
      }
    }
    const grammarLine = await setupIvrApp(gw, {
      name: 'Pharmacy grammar',
      agent: pharmacy({ threshold: 0.3 }),
      settings: { transcription: { enabled: false } },
    });
    lines.set('confirm grammar', {
      app: grammarLine,
      historyOf: await callHistoryReader(gw, grammarLine.streamId),
    });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await recogniser.close();
    await store.close();
  });

  async function call(
    kind: 'confirm' | 'choose',
    mode: Mode,
    inputs: string[],
    line = lines.get(`${kind} ${mode}`)!,
  ) {
    const callId = `c-nlu-${factory.name}-${mode}-${++n}`;
    const r = await runCall({
      webhookUrl: line.app.webhookUrl,
      mode,
      callId,
      inputs,
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(r.failure ?? r.error).toBeUndefined();
    expect(r.events.map((e) => e.name).filter((e) => e.startsWith('error'))).toEqual([]);
    const traces = async () =>
      (await gw.admin('GET', `/api/admin/apps/${line.app.streamId}/calls/${encodeURIComponent(callId)}`)).body
        .turns as any[];
    return { r, history: () => line.historyOf(callId), traces };
  }
  const incoming = (h: HistoryMessage[], text: string) =>
    h.find((m) => m.type === 'incoming' && m.text === text);

  describe.each(MODES)('in %s mode', (mode) => {
    it('when the caller says yes to "Did you want to refill a prescription?", then the refill dialog runs and the turns say confirmed', async () => {
      const { r, history, traces } = await call('confirm', mode, ['refill my prescription', 'yes']);
      expect(r.spoken).toContain('Did you want to refill a prescription?');
      expect(r.spoken.join(' ')).toContain('Refilling your prescription.');
      expect(r.result?.endOfConversation).toBe(true);
      const h = await history();
      expect(incoming(h, 'refill my prescription')?.tags).toMatchObject({
        intent: 'RefillPrescription',
        nluDecision: 'confirm',
        nluReason: 'always',
      });
      expect(incoming(h, 'yes')?.tags).toMatchObject({
        intent: 'RefillPrescription',
        nluDecision: 'accept',
        nluReason: 'confirmed',
      });
      const t = await traces();
      expect(t.find((x) => x.turn === 1)?.decision).toMatchObject({
        outcome: 'confirm',
        intent: 'RefillPrescription',
        why: 'confirm RefillPrescription (always asked)',
      });
      expect(t.find((x) => x.turn === 2)?.decision).toMatchObject({
        outcome: 'accept',
        reason: 'confirmed',
        why: 'RefillPrescription confirmed',
      });
    });

    it('when the caller says no, then the denial prompt is said and their next request is heard', async () => {
      const { r, history, traces } = await call('confirm', mode, [
        'refill my prescription',
        'no',
        'when are you open',
      ]);
      expect(r.spoken.join(' ')).toContain('Sorry about that. What would you like to do?');
      expect(r.spoken.join(' ')).toContain('We open at nine.');
      expect(r.spoken.join(' ')).not.toContain('Refilling');
      expect(incoming(await history(), 'no')?.tags).toMatchObject({
        nluDecision: 'reject',
        nluReason: 'denied',
        nluIntents: 'RefillPrescription',
      });
      expect((await traces()).find((x) => x.turn === 2)?.decision?.why).toBe('denied RefillPrescription');
    });

    it('when the caller gives no input to the question, then it is asked again and a key 1 then says yes', async () => {
      const { r } = await call('confirm', mode, ['refill my prescription', '!noinput', '#1']);
      expect(r.events.map((e) => e.name)).toContain('noinput');
      expect(
        r.spoken.filter((s) => s.includes('Did you want to refill a prescription?')).length,
      ).toBeGreaterThanOrEqual(2);
      expect(r.spoken.join(' ')).toContain('Refilling your prescription.');
    });

    it('when two intents are asked between, then the caller picks one by its words or by key 2', async () => {
      const byWords = await call('choose', mode, ['refill hours', 'the store hours']);
      const asked = byWords.r.spoken.find((s) => s.startsWith('Do you want to'));
      expect(asked).toMatch(
        /^Do you want to (refill a prescription, or hear the store hours|hear the store hours, or refill a prescription)\?$/,
      );
      expect(byWords.r.spoken.join(' ')).toContain('We open at nine.');
      const t = await byWords.traces();
      expect(t.find((x) => x.turn === 1)?.decision?.why).toMatch(
        /^ambiguous between (RefillPrescription and StoreHours|StoreHours and RefillPrescription)$/,
      );
      expect(t.find((x) => x.turn === 2)?.decision).toMatchObject({
        outcome: 'accept',
        intent: 'StoreHours',
        reason: 'chosen',
      });

      const byKey = await call('choose', mode, ['refill hours', '#2']);
      const second = asked!.endsWith('refill a prescription?')
        ? 'Refilling your prescription.'
        : 'We open at nine.';
      expect(byKey.r.spoken.join(' ')).toContain(second);
      expect(incoming(await byKey.history(), '2')?.tags).toMatchObject({
        nluDecision: 'accept',
        nluReason: 'chosen',
      });
    });

    it('when the caller says something the agent does not know, then the fallback runs and the trace says why', async () => {
      const { r, history, traces } = await call('confirm', mode, ['xyzzy plugh', '!hangup']);
      expect(r.spoken.join(' ')).toContain('Sorry, I can refill a prescription or tell you our hours.');
      const turn = (await traces()).find((x) => x.turn === 1);
      expect(turn?.recognition?.intent).toBe('None');
      expect(turn?.decision).toMatchObject({ outcome: 'reject' });
      expect(turn?.decision?.why).toMatch(/^(out of scope|below threshold)$/);
      expect(turn?.path).toEqual(
        expect.arrayContaining([`#decision ${turn?.decision?.why}`, 'fallback.sorry']),
      );
      expect(incoming(await history(), 'xyzzy plugh')?.tags).toMatchObject({
        intent: 'None',
        nluDecision: 'reject',
      });
    });
  });

  it("when the browser's own grammar names the intent (transcription off, strict-w3c), then it starts its dialog without a question, as before", async () => {
    const { r, history, traces } = await call(
      'confirm',
      'strict-w3c',
      ['refill my prescription'],
      lines.get('confirm grammar'),
    );
    expect(r.submits.find((s) => s.params.message === 'refill my prescription')?.params.interpretation).toBe(
      'RefillPrescription',
    );
    expect(r.spoken).not.toContain('Did you want to refill a prescription?');
    expect(r.spoken.join(' ')).toContain('Refilling your prescription.');
    expect((await traces()).find((x) => x.turn === 1)?.decision).toMatchObject({
      outcome: 'accept',
      reason: 'grammar',
    });
    expect(incoming(await history(), 'refill my prescription')?.tags).toMatchObject({
      intent: 'RefillPrescription',
      nluReason: 'grammar',
    });
  });
});
