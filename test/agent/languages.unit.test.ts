import { beforeAll, describe, expect, it } from 'vitest';
import {
  bilingualDemoAgentDefinition,
  compileAgent,
  loadCompiledAgent,
  validateAgentDefinition,
  type CompiledAgent,
  type TurnInput,
} from '../../src/agent/index.js';
import { converse, dtmf, last, settings, voice } from './agent-test-kit.js';

const start: TurnInput = { kind: 'start' };
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
let agent: CompiledAgent;
beforeAll(async () => {
  agent = await compileAgent(bilingualDemoAgentDefinition);
});

describe('a bilingual definition', () => {
  it('when a node has no Spanish text, then validation names the missing translation at its path', () => {
    const def = clone(bilingualDemoAgentDefinition) as Record<string, any>;
    def.dialogs.hours.nodes.say.text = 'We are open every day.';
    delete def.intents[2].translations;
    const r = validateAgentDefinition(def);
    expect(r.ok).toBe(false);
    const paths = r.ok ? [] : r.problems.map((p) => p.path);
    expect(paths).toContain('dialogs.hours.nodes.say.text.es-US');
    expect(paths).toContain('intents[2].translations.es-US.utterances');
  });

  it('when translationFallback is set, then the default text stands in and the gap is listed for the status', async () => {
    const def = clone(bilingualDemoAgentDefinition) as Record<string, any>;
    def.translationFallback = true;
    def.dialogs.hours.nodes.say.text = 'We are open every day.';
    const compiled = await compileAgent(def);
    expect(compiled.missingTranslations).toEqual([
      { path: 'dialogs.hours.nodes.say.text.es-US', language: 'es-US' },
    ]);
    const r = last(await converse(compiled, [start, dtmf('2'), voice('cuál es su horario'), voice('sí')]));
    expect(r.promptText).toBe('We are open every day.');
    expect(r.language).toBe('es-US');
  });

  it('when a text names a language the agent lacks, or a language is unsupported, then each is refused at its path', () => {
    const def = clone(bilingualDemoAgentDefinition) as Record<string, any>;
    def.dialogs.hours.nodes.say.text['fr-FR'] = 'Nous sommes ouverts.';
    def.languages = ['en-US', 'es-US', 'de-DE'];
    const r = validateAgentDefinition(def);
    const paths = r.ok ? [] : r.problems.map((p) => p.path);
    expect(paths).toContain('dialogs.hours.nodes.say.text.fr-FR');
    expect(paths).toContain('languages[2]');
  });

  it('when an existing English agent is validated, then it still has one language and one plain model', async () => {
    const def = clone(bilingualDemoAgentDefinition) as Record<string, any>;
    const english = await compileAgent({
      ...def,
      languages: undefined,
      language: 'en',
      intents: def.intents.map(({ translations: _t, ...i }: Record<string, unknown>) => i),
      dialogs: {
        ...def.dialogs,
        welcome: { start: 'hello', nodes: { hello: { type: 'message', text: 'Hi.' } } },
      },
      nlu: { threshold: 0.45 },
      translationFallback: true,
    });
    expect(english.languages).toEqual(['en']);
    expect(JSON.parse(english.exportModel())).toHaveProperty('intents');
  });

  it('when the model is exported and loaded again, then both languages recognise as before', async () => {
    const loaded = loadCompiledAgent(bilingualDemoAgentDefinition, agent.exportModel());
    expect((await loaded.recognizers.get('es-US')!.recognize('quiero reservar una mesa')).intent).toBe(
      'BookTable',
    );
    expect((await loaded.recognizers.get('en-US')!.recognize('i want to book a table')).intent).toBe(
      'BookTable',
    );
  });
});

describe('a call in Spanish', () => {
  it('when the call starts, then the welcome offers Spanish in Spanish and awaits its key', async () => {
    const [r] = await converse(agent, [start]);
    expect(r!.promptText).toBe(
      'Welcome to Casa Luigi. You can book a table or ask for our opening hours. Para español, oprima dos o diga español.',
    );
    expect(r!.await).toEqual({ kind: 'intent', languageKeys: ['1', '2'] });
    expect(r!.language).toBe('en-US');
  });

  it('when the caller keys 2 and books a table, then every prompt is Spanish and the booking ends in Spanish', async () => {
    const results = await converse(agent, [
      start,
      dtmf('2'),
      voice('quiero reservar una mesa'),
      voice('cuatro'),
      dtmf('20270312'),
      voice('sí'),
    ]);
    expect(results[1]).toMatchObject({
      language: 'es-US',
      languageChanged: { from: 'en-US', to: 'es-US', by: 'dtmf' },
    });
    expect(results[1]!.promptText).toBe(
      'Bienvenido a Casa Luigi. Puede reservar una mesa o preguntar por nuestro horario.',
    );
    expect(results[2]!.promptText).toBe('¿Para cuántas personas?');
    expect(results[3]!.state.entities.size).toBe(4);
    expect(results[4]!.promptText).toBe('Una mesa para 4 el 2027-03-12. ¿La reservo?');
    const end = last(results);
    expect(end).toMatchObject({
      action: 'end',
      language: 'es-US',
      promptText: 'Su mesa está reservada. Adiós.',
    });
    expect(end.state.language).toBe('es-US');
  });

  it('when the caller says "español", then the call switches by voice', async () => {
    const r = last(await converse(agent, [start, voice('Español, por favor')]));
    expect(r).toMatchObject({ language: 'es-US', languageChanged: { by: 'voice', to: 'es-US' } });
  });

  it('when an intent is unsure in Spanish, then the confirmation is asked in Spanish and a "sí" confirms it', async () => {
    const results = await converse(agent, [start, dtmf('2'), voice('a qué hora abren'), voice('sí')]);
    expect(results[2]!.promptText).toBe('¿Quería saber nuestro horario?');
    expect(last(results).promptText).toBe('Abrimos todos los días de doce a once.');
  });

  it('when the caller says "English" mid-call, then the call goes on in English and stays there', async () => {
    const results = await converse(agent, [
      start,
      dtmf('2'),
      voice('cuál es su horario'),
      voice('sí'),
      voice('english'),
      voice('i want to book a table'),
    ]);
    expect(results[4]).toMatchObject({
      language: 'en-US',
      languageChanged: { from: 'es-US', to: 'en-US', by: 'voice' },
    });
    expect(last(results)).toMatchObject({ language: 'en-US', promptText: 'For how many people?' });
  });

  it('when the channel gives the language at the start, then the welcome is in it and offers nothing', async () => {
    const [r] = await converse(agent, [{ kind: 'start', language: 'es' }]);
    expect(r!.promptText).toBe(
      'Bienvenido a Casa Luigi. Puede reservar una mesa o preguntar por nuestro horario.',
    );
    expect(r).toMatchObject({ language: 'es-US', languageChanged: { by: 'channel' } });
  });

  it("when the caller is not understood in Spanish, then the no-match prompt is the Spanish one, not the app's English text", async () => {
    const r = last(
      await converse(agent, [start, dtmf('2'), voice('quiero reservar una mesa'), voice('azul')]),
    );
    expect(r.promptText).toBe('Diga o marque el número de personas. ¿Para cuántas personas?');
    const s = { ...settings, byLanguage: { 'es-US': { noMatchPrompt: 'No le he oído bien.' } } };
    const q = last(await converse(agent, [start, dtmf('2'), voice('xyzzy plugh')], { settings: s }));
    expect(q.language).toBe('es-US');
  });
});
