/**
 * Issue 43: a document's prompts in its language's TTS voice (SSML `<voice>`) and say-as content
 * written for the document's language, in every dialect, each document valid against vxml.xsd.
 */
import { describe, expect, it } from 'vitest';
import {
  dialectNames,
  renderDocument,
  type PromptPart,
  type PromptVoice,
  type VxmlDocument,
} from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { samples, text } from './sample-documents.js';
import { find, findAll, parseXml, type XNode } from './xml-tree.js';

const VOICE_KINDS = ['ask', 'say', 'end', 'transfer', 'wait', 'error'] as const;
const LANGUAGES: Record<string, PromptVoice> = {
  'en-US': { name: 'Samantha', gender: 'female', lang: 'en-US' },
  'es-US': { name: 'Paulina  Monica', gender: 'male', lang: 'es-US' },
};

const withLanguage = (doc: VxmlDocument, lang: string, voice?: PromptVoice): VxmlDocument =>
  ({ ...doc, lang, ...(voice ? { voice } : {}) }) as VxmlDocument;
const sayAs = (interpretAs: string, value: string, format?: string): PromptPart => ({
  type: 'say-as',
  interpretAs,
  text: value,
  ...(format ? { format } : {}),
});

/** The say-as elements of a say document whose prompt has these parts, in `lang`. */
function sayAsIn(lang: string, parts: PromptPart[]): XNode[] {
  const xml = renderDocument({ ...samples.say, lang, prompt: parts } as VxmlDocument);
  return findAll(parseXml(xml), 'say-as');
}

describe('voices and say-as per language', () => {
  for (const dialect of dialectNames) {
    it(`when a document in en-US or es-US has a voice, then every prompt speaks in it under ${dialect}, and the documents validate`, async () => {
      const xmls: string[] = [];
      for (const [lang, voice] of Object.entries(LANGUAGES)) {
        for (const kind of VOICE_KINDS) {
          const xml = renderDocument(withLanguage(samples[kind], lang, voice), { dialect });
          xmls.push(xml);
          const prompts = findAll(parseXml(xml), 'prompt');
          expect(prompts.length, `${kind} ${lang}`).toBeGreaterThan(0);
          for (const p of prompts) {
            expect(p.children.map((c) => c.name)).toEqual(['voice']);
            expect(p.text.trim()).toBe('');
            expect(p.children[0]!.attrs).toEqual({
              name: voice.name!.split(/\s+/).join(' '),
              gender: voice.gender,
              'xml:lang': lang,
            });
          }
        }
      }
      await assertValidVxml(xmls);
    });
  }

  it('when a document has no voice, or a voice with neither name nor gender, then its prompts hold their words directly', async () => {
    const plain = renderDocument(withLanguage(samples.say, 'es-US'));
    const empty = renderDocument(withLanguage(samples.say, 'es-US', { lang: 'es-US' }));
    for (const xml of [plain, empty]) {
      expect(findAll(parseXml(xml), 'voice')).toEqual([]);
      expect(findAll(parseXml(xml), 'prompt').some((p) => p.text.includes('Booking 4567'))).toBe(true);
    }
    await assertValidVxml([plain, empty]);
  });

  it('when a voice gives only a gender, then the voice element has no name and takes the document language', async () => {
    const xml = renderDocument(withLanguage(samples.ask, 'es-US', { gender: 'neutral' }));
    expect(find(parseXml(xml), 'voice').attrs).toEqual({ gender: 'neutral', 'xml:lang': 'es-US' });
    await assertValidVxml(xml);
  });

  it('when a Spanish prompt reads a decimal number, then it is written with a decimal comma and no English thousands separator', async () => {
    const [decimal, thousands, whole] = sayAsIn('es-US', [
      sayAs('cardinal', '1234.5'),
      sayAs('number', '12,345.25'),
      sayAs('currency', '1500'),
    ]);
    expect(decimal!.text).toBe('1234,5');
    expect(thousands!.text).toBe('12345,25');
    expect(whole!.text).toBe('1500');
  });

  it('when an English prompt reads the same numbers, then they are left as written', () => {
    const [decimal, thousands] = sayAsIn('en-US', [
      sayAs('cardinal', '1234.5'),
      sayAs('number', '12,345.25'),
    ]);
    expect(decimal!.text).toBe('1234.5');
    expect(thousands!.text).toBe('12,345.25');
  });

  it('when a date is given as yyyy-mm-dd without a format, then format="ymd" is written in both languages; a format given is kept', async () => {
    const xmls: string[] = [];
    for (const lang of ['en-US', 'es-US']) {
      const parts = [
        text('Su mesa:'),
        sayAs('date', '2027-03-12'),
        sayAs('date', '12/03/2027', 'dmy'),
        sayAs('ordinal', '3'),
      ];
      const xml = renderDocument({ ...samples.say, lang, prompt: parts } as VxmlDocument);
      xmls.push(xml);
      const [iso, given, ordinal] = findAll(parseXml(xml), 'say-as');
      expect(iso!.attrs).toEqual({ 'interpret-as': 'date', format: 'ymd' });
      expect(iso!.text).toBe('2027-03-12');
      expect(given!.attrs).toEqual({ 'interpret-as': 'date', format: 'dmy' });
      expect(ordinal!.attrs).toEqual({ 'interpret-as': 'ordinal' });
      expect(ordinal!.text).toBe('3');
    }
    await assertValidVxml(xmls);
  });
});
