/**
 * The intents' grammar: normalisation, deduplication, caps, the SISR tags, and the standalone SRGS
 * document against grammar.xsd.
 */
import { describe, it, expect } from 'vitest';
import {
  buildIntentGrammar,
  normalisePhrase,
  renderDocument,
  renderSrgsDocument,
  type IntentPhrases,
} from '../../src/vxml/index.js';
import { assertValidVxml, validateSrgs } from '../helpers/vxml-schema.js';
import { askIntent, intents } from './sample-documents.js';
import { decodeEcmaString, find, findAll, parseXml } from './xml-tree.js';

const phrasesOf = (g: ReturnType<typeof buildIntentGrammar>) => g.items.map((i) => `${i.tag}:${i.phrase}`);

describe('buildIntentGrammar', () => {
  it('when phrases have case, punctuation and odd spacing, then they are lower-cased with punctuation removed and spaces collapsed', () => {
    expect(normalisePhrase("  What's   my BOOKING-status?!  ")).toBe('whats my booking status');
    expect(normalisePhrase('Café, s’il vous plaît.')).toBe('café sil vous plaît');
    expect(normalisePhrase('ＦＵＬＬＷＩＤＴＨ ２')).toBe('fullwidth 2');
    expect(normalisePhrase('<tag>&amp;</tag>')).toBe('tag amp tag');
  });

  it('when the sample intents are built, then every phrase is tagged with its intent in the given order', () => {
    const g = buildIntentGrammar(intents);
    expect(g).toMatchObject({ kind: 'srgs', mode: 'voice', root: 'intents' });
    expect(phrasesOf(g)).toEqual([
      'BookTable:book a table',
      'BookTable:reserve a table for tonight',
      'CheckBooking:check my booking',
      'CheckBooking:change my booking',
    ]);
  });

  it('when a phrase repeats within an intent, then it is kept once; when two intents claim it, then both lose it', () => {
    const g = buildIntentGrammar([
      { name: 'A', utterances: ['Hello', 'hello!', 'help me'] },
      { name: 'B', utterances: ['HELP ME', 'bye'] },
    ]);
    expect(phrasesOf(g)).toEqual(['A:hello', 'B:bye']);
    expect(g.omitted).toEqual({ ambiguous: 1, tooLong: 0, overCap: 0, empty: 0 });
  });

  it('when phrases are empty or too long, then they are left out and counted', () => {
    const g = buildIntentGrammar([{ name: 'A', utterances: ['?!', 'x'.repeat(101), 'x'.repeat(100)] }]);
    expect(g.items.map((i) => i.phrase.length)).toEqual([100]);
    expect(g.omitted).toMatchObject({ empty: 1, tooLong: 1 });
  });

  it('when there are more phrases than the cap, then intents share it in turns, shortest phrases first', () => {
    const many: IntentPhrases[] = [
      { name: 'Big', utterances: ['a a a a', 'b', 'c c', 'd d d', 'e e e e e'] },
      { name: 'Small', utterances: ['only one'] },
      { name: 'Mid', utterances: ['x x x', 'y'] },
    ];
    const g = buildIntentGrammar(many, { maxItems: 5 });
    expect(phrasesOf(g)).toEqual(['Big:b', 'Big:c c', 'Small:only one', 'Mid:x x x', 'Mid:y']);
    expect(g.omitted?.overCap).toBe(3);
    expect(buildIntentGrammar(many, { maxItems: 0 }).items).toEqual([]);
  });

  it('when the default caps apply, then at most 500 items of at most 100 characters are kept', () => {
    const big = Array.from({ length: 30 }, (_, i) => ({
      name: `I${i}`,
      utterances: Array.from({ length: 40 }, (_, j) => `intent ${i} phrase ${j}`),
    }));
    const g = buildIntentGrammar(big);
    expect(g.items).toHaveLength(500);
    expect(new Set(g.items.map((i) => i.tag)).size).toBe(30);
    expect(Math.max(...g.items.map((i) => i.phrase.length))).toBeLessThanOrEqual(100);
    expect(Object.isFrozen(g.items)).toBe(true);
  });

  it('when intent names need escaping, then each tag is out= and an ECMAScript literal of the name', () => {
    const g = buildIntentGrammar([{ name: 'O\'Brien "<x>"', utterances: ['call obrien'] }]);
    const tag = find(parseXml(renderDocument({ ...askIntent, grammars: [g] })), 'tag').text;
    expect(tag).toBe("out='O\\'Brien \\x22\\x3Cx\\x3E\\x22';");
    expect(decodeEcmaString(tag.slice(4, -1))).toBe('O\'Brien "<x>"');
  });
});

describe('renderSrgsDocument', () => {
  it('when the intents grammar is rendered standalone, then grammar.xsd accepts it', async () => {
    const xml = renderSrgsDocument(buildIntentGrammar(intents), { lang: 'en-US' });
    const root = parseXml(xml);
    expect(root.attrs).toMatchObject({
      xmlns: 'http://www.w3.org/2001/06/grammar',
      version: '1.0',
      'xml:lang': 'en-US',
      root: 'intents',
      'tag-format': 'semantics/1.0',
      mode: 'voice',
    });
    expect(findAll(root, 'item')).toHaveLength(4);
    const r = await validateSrgs(xml);
    expect(r.errors).toEqual([]);
  });

  it('when the grammar has no items or hostile ones, then the standalone document still validates', async () => {
    const empty = renderSrgsDocument({ kind: 'srgs', mode: 'voice', root: 'x-y.z', items: [] });
    expect(find(parseXml(empty), 'ruleref').attrs).toEqual({ special: 'VOID' });
    expect((await validateSrgs(empty)).errors).toEqual([]);
    const hostile = renderSrgsDocument(
      { kind: 'srgs', mode: 'voice', root: '</rule>', items: [{ phrase: ']]> & <!--', tag: "\u2028'" }] },
      { lang: 'bad lang!' },
    );
    expect((await validateSrgs(hostile)).errors).toEqual([]);
    expect(parseXml(hostile).attrs['xml:lang']).toBe('en-US');
  });

  it('when the intents grammar is inline in an ask, then vxml.xsd accepts it, also with no items', async () => {
    await assertValidVxml([
      renderDocument({ ...askIntent, grammars: [buildIntentGrammar(intents)] }),
      renderDocument({ ...askIntent, grammars: [buildIntentGrammar([])] }),
    ]);
  });
});
