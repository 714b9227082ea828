/**
 * The translations view's pure logic, without a browser: the rows of a bilingual definition (phrases
 * and every text a caller hears), the missing translations it marks (the same the service finds, as
 * compiling the definition lists them), and the edits it writes into the definition.
 */
import { describe, expect, it } from 'vitest';
import {
  definitionLanguages,
  missingCount,
  missingIn,
  translationRows,
  withPhrases,
  withText,
  type TextRow,
} from '../../../console/src/pages/agent/translation-table.js';
import { bilingualDemoAgentDefinition, compileAgent } from '../../../src/agent/index.js';

const gappy = () => {
  const def = structuredClone(bilingualDemoAgentDefinition) as any;
  def.translationFallback = true;
  def.dialogs.welcome.nodes.hello.text = 'Welcome.';
  delete def.intents[0].translations['es-US'];
  return def;
};

describe('the translations side by side', () => {
  it('when the definition is the bilingual demo, then every phrase list and text has both languages and none is missing', () => {
    const rows = translationRows(bilingualDemoAgentDefinition);
    expect(definitionLanguages(bilingualDemoAgentDefinition)).toEqual(['en-US', 'es-US']);
    expect(rows.filter((r) => r.kind === 'phrases')).toHaveLength(
      (bilingualDemoAgentDefinition as any).intents.length,
    );
    expect(rows.some((r) => r.key === 'dialogs.welcome.nodes.hello.text')).toBe(true);
    expect(missingCount(rows, ['en-US', 'es-US'])).toBe(0);
  });

  it('when a text is a plain string and an intent lacks its Spanish phrases, then those two are missing in es-US, where the service finds them', async () => {
    const def = gappy();
    const rows = translationRows(def);
    const missing = rows.filter((r) => missingIn(r, 'es-US')).map((r) => r.key);
    expect(missing).toEqual(['intents[0]', 'dialogs.welcome.nodes.hello.text']);
    expect(rows.filter((r) => missingIn(r, 'en-US'))).toEqual([]);
    const compiled = await compileAgent(def);
    expect(compiled.missingTranslations.map((g) => g.path).sort()).toEqual([
      'dialogs.welcome.nodes.hello.text.es-US',
      'intents[0].translations.es-US.utterances',
    ]);
  });

  it('when the missing texts are written in, then the definition holds them per language and nothing is missing', async () => {
    let def = gappy();
    const text = translationRows(def).find(
      (r): r is TextRow => r.key === 'dialogs.welcome.nodes.hello.text',
    )!;
    def = withText(def, text.path, 'es-US', 'Bienvenido.');
    def = withPhrases(def, 0, 'es-US', ['reservar una mesa', 'quiero reservar']);
    expect(def.dialogs.welcome.nodes.hello.text).toEqual({ 'en-US': 'Welcome.', 'es-US': 'Bienvenido.' });
    expect(def.intents[0].translations['es-US']).toEqual({
      utterances: ['reservar una mesa', 'quiero reservar'],
    });
    expect(missingCount(translationRows(def), ['en-US', 'es-US'])).toBe(0);
    expect((await compileAgent(def)).missingTranslations).toEqual([]);
    // the definition given is left as it was
    expect(gappy().dialogs.welcome.nodes.hello.text).toBe('Welcome.');
  });

  it('when a Spanish text is emptied, then its key is removed (missing again), and the default language is edited in place', () => {
    const def = withText(
      bilingualDemoAgentDefinition,
      ['dialogs', 'welcome', 'nodes', 'hello', 'text'],
      'es-US',
      '',
    );
    expect(Object.keys((def as any).dialogs.welcome.nodes.hello.text)).toEqual(['en-US']);
    const row = translationRows(def).find((r) => r.key === 'dialogs.welcome.nodes.hello.text')!;
    expect(missingIn(row, 'es-US')).toBe(true);
    const en = withPhrases(def, 1, 'en-US', ['hours please']);
    expect((en as any).intents[1].utterances).toEqual(['hours please']);
  });

  it('when a definition has one language, then it has no other column to fill', () => {
    expect(definitionLanguages({ language: 'en' })).toEqual(['en']);
    expect(definitionLanguages({})).toEqual(['en-US']);
    expect(definitionLanguages(null)).toEqual([]);
  });
});
