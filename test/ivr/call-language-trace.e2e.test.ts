/**
 * Issue 43 leftovers over real HTTP: a call's language reaches the call inspector (each turn's
 * trace carries it as `lang`) and the TTS voice the IVR settings give that language is in every
 * prompt of the call's documents; every document is checked against the VoiceXML schema.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, spokenOf } from '../helpers/ivr-call.js';
import { findAll, parseXml } from '../vxml/xml-tree.js';
import { bilingualDemoAgentDefinition } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';

const VOICES = { 'es-US': { name: 'Paulina Monica', gender: 'female' }, en: { gender: 'male' } };

describeEachStore('the call language in traces and voices', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw, {
      name: 'Casa Luigi voices',
      agent: bilingualDemoAgentDefinition,
      settings: { languages: { voices: VOICES } },
    });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const turnsOf = async (callId: string): Promise<Array<{ turn: number; lang?: string }>> => {
    const r = await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls/${encodeURIComponent(callId)}`);
    expect(r.status).toBe(200);
    return (r.body as { turns: Array<{ turn: number; lang?: string }> }).turns;
  };

  /** The call's language as the app's list of calls shows it. */
  const listedLangOf = async (callId: string): Promise<string | undefined> => {
    const r = await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls?limit=100`);
    expect(r.status).toBe(200);
    return (r.body as { calls: Array<{ callId: string; lang?: string }> }).calls.find(
      (c) => c.callId === callId,
    )?.lang;
  };

  /** The voices of every prompt of a document (one per prompt that has words). */
  const voicesOf = (xml: string) =>
    findAll(parseXml(xml), 'prompt').map((p) => {
      expect(p.children.map((c) => c.name)).toEqual(['voice']);
      return p.children[0]!.attrs;
    });

  it('when the root passes language=es-US, then each turn of the call is traced with lang es-US and spoken in the Spanish voice', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    const first = await call.start({ language: 'es-US' });
    expect(spokenOf(first)).toContain('Bienvenido a Casa Luigi.');
    const second = await call.say('quiero reservar una mesa');
    for (const xml of [first, second]) {
      const voices = voicesOf(xml);
      expect(voices.length).toBeGreaterThan(0);
      for (const v of voices)
        expect(v).toEqual({ name: 'Paulina Monica', gender: 'female', 'xml:lang': 'es-US' });
    }
    const turns = await turnsOf(call.callId);
    expect(turns.map((t) => t.turn)).toEqual([0, 1]);
    expect(turns.map((t) => t.lang)).toEqual(['es-US', 'es-US']);
  });

  it('when no language is given, then the turns are traced with the default en-US and the voice set for "en" is used', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    const first = await call.start();
    expect(spokenOf(first)).toContain('Welcome to Casa Luigi.');
    for (const v of voicesOf(first)) expect(v).toEqual({ gender: 'male', 'xml:lang': 'en-US' });
    const turns = await turnsOf(call.callId);
    expect(turns.map((t) => t.lang)).toEqual(['en-US']);
    expect(await listedLangOf(call.callId)).toBe('en-US');
  });

  it('when the caller keys 2 at the welcome, then the turn that switched and the ones after it carry es-US', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    const switched = await call.say('2', { inputmode: 'dtmf' });
    expect(spokenOf(switched)).toContain('Bienvenido a Casa Luigi.');
    const turns = await turnsOf(call.callId);
    expect(turns.map((t) => t.lang)).toEqual(['en-US', 'es-US']);
    // the list of calls shows the language the call has now
    expect(await listedLangOf(call.callId)).toBe('es-US');
  });
});
