/**
 * Hostile caller and model text in every place data reaches a document: the document stays valid, its
 * element structure is that of a benign render, text comes back as given (less what XML cannot carry),
 * and every ECMAScript literal decodes (with our own decoder) to the input.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  buildIntentGrammar,
  renderDocument,
  type FieldGrammar,
  type VxmlDocument,
} from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { askIntent, samples, text } from './sample-documents.js';
import {
  decodeEcmaString,
  deepText,
  elementPaths,
  find,
  findAll,
  parseXml,
  wellFormed,
  xmlKept,
  type XNode,
} from './xml-tree.js';

const HOSTILE = [
  '</prompt><goto next="http://evil"/>',
  "'; x(); '",
  '" onload="x',
  '&',
  '&amp;',
  '&nbsp;',
  '&#0;',
  '&#x3C;',
  ']]>',
  '<!--',
  '-->',
  '<?xml version="1.0"?>',
  '\uD800',
  'a\uDC00b',
  '\uDBFF\uDFFF',
  '\u0000\u0001\u0008\u000B\u000C\u001F\u007F\u0085',
  '\u2028\u2029',
  '\uFFFE\uFFFF',
  '\\',
  "\\'",
  '$&',
  '$1',
  '<vxml-fragment>0</vxml-fragment>',
  'line1\nline2\ttab',
  'cr\rcrlf\r\n',
  '😀 ünïcödé',
];
const EVIL = HOSTILE.join(' | ');
const BENIGN = 'benign';

const rendered: string[] = [];
function render(doc: VxmlDocument): XNode {
  const xml = renderDocument(doc);
  rendered.push(xml);
  return parseXml(xml);
}

/** XML text as a parser hands it back: only XML characters, line ends as LF. */
const asText = (s: string) => xmlKept(s).replace(/\r\n?/g, '\n');
/** Attribute values: XML characters, with tab/newline/CR as spaces. */
const asAttr = (s: string) => xmlKept(s).replace(/[\t\n\r]/g, ' ');

interface Slot {
  name: string;
  doc: (s: string) => VxmlDocument;
  /** Checks on the hostile render. */
  check?: (t: XNode, s: string) => void;
}

const ask = askIntent;
const slots: Slot[] = [
  {
    name: 'ask prompt text',
    doc: (s) => ({ ...ask, prompt: [text(s)] }),
    check: (t, s) => expect(deepText(find(find(t, 'field'), 'prompt'))).toBe(asText(s)),
  },
  {
    name: 'no-input prompt',
    doc: (s) => ({ ...ask, noInputPrompt: [text(s)] }),
    check: (t, s) => expect(deepText(findAll(find(find(t, 'field'), 'if'), 'prompt')[0]!)).toBe(asText(s)),
  },
  {
    name: 'apology',
    doc: (s) => ({ ...ask, apology: [text(s)] }),
    check: (t, s) => expect(deepText(find(find(find(t, 'form'), 'catch'), 'prompt'))).toBe(asText(s)),
  },
  {
    name: 'nested SSML and its attributes',
    doc: (s) => ({
      ...ask,
      prompt: [
        { type: 'emphasis', level: s as 'strong', parts: [text(s)] },
        { type: 'say-as', interpretAs: 'characters', format: s, text: s },
        { type: 'prosody', rate: s, pitch: s, volume: s, parts: [text(s)] },
        { type: 'audio', src: s, parts: [text(s)] },
        { type: 'break', time: s, strength: s as 'weak' },
      ],
    }),
  },
  {
    name: 'callId',
    doc: (s) => ({ ...ask, vars: { ...ask.vars, callId: s } }),
    check: (t, s) => expect(decodeEcmaString(t.children[0]!.attrs.expr!)).toBe(wellFormed(s)),
  },
  {
    name: 'from',
    doc: (s) => ({ ...ask, vars: { ...ask.vars, from: s } }),
    check: (t, s) => expect(decodeEcmaString(t.children[1]!.attrs.expr!)).toBe(wellFormed(s)),
  },
  {
    name: 'turn',
    doc: (s) => ({ ...ask, vars: { ...ask.vars, turn: s } }),
    check: (t, s) => expect(decodeEcmaString(t.children[2]!.attrs.expr!)).toBe(wellFormed(s)),
  },
  {
    name: 'field name',
    doc: (s) => ({ ...ask, fieldName: s }),
    check: (t) => expect(find(t, 'field').attrs.name).toMatch(/^[\p{L}][\p{L}\p{N}_]*$/u),
  },
  {
    name: 'property value',
    doc: (s) => ({ ...ask, documentProperties: { timeout: s }, fieldProperties: { termchar: s } }),
    check: (t, s) => expect(find(t, 'property').attrs.value).toBe(asAttr(s)),
  },
  {
    name: 'webhook URL',
    doc: (s) => ({
      ...ask,
      submit: { url: `https://gw.example/ivr?token=${s}`, fetchaudio: s, fetchtimeout: s },
    }),
    check: (t) => expect(find(t, 'submit').attrs.next).not.toMatch(/[\s<>"{}|\\^`]/),
  },
  { name: 'xml:lang', doc: (s) => ({ ...ask, lang: s }) },
  {
    name: 'URIs of every kind',
    doc: (s) => ({
      ...ask,
      submit: { url: s, fetchaudio: `${s}#a#b` },
      prompt: [
        { type: 'audio', src: `:${s}`, parts: [] },
        { type: 'audio', src: `http://[::1]:80/${s}[x]`, parts: [] },
      ],
      grammars: [{ kind: 'uri', mode: 'voice', src: `//${s}` }],
    }),
  },
  {
    name: 'transfer destination, aai and timeout',
    doc: (s) => ({ ...samples.transfer, destination: s, aai: s, connecttimeout: s }) as VxmlDocument,
    check: (t, s) => expect(find(t, 'transfer').attrs.aai).toBe(asAttr(s)),
  },
  {
    name: 'end return value',
    doc: (s) => ({
      kind: 'end',
      callId: s,
      prompt: [text(s)],
      behaviour: 'return',
      returnVars: { reason: s },
    }),
    check: (t, s) =>
      expect(
        findAll(t, 'var').map((v) => decodeEcmaString(v.attrs.expr!.startsWith("'") ? v.attrs.expr! : "''")),
      ).toEqual([wellFormed(s), wellFormed(s), '', '', '', '', wellFormed(s)]),
  },
  {
    name: 'error name',
    doc: (s) => ({ kind: 'error', prompt: [text(s)], error: s }),
    check: (t, s) => expect(decodeEcmaString(findAll(t, 'var').at(-1)!.attrs.expr!)).toBe(wellFormed(s)),
  },
  {
    name: 'sandbox attempt id',
    doc: (s) => ({ ...samples['sandbox-login'], attemptId: s, pinPrompt: [text(s)] }) as VxmlDocument,
    check: (t, s) => expect(decodeEcmaString(t.children[0]!.attrs.expr!)).toBe(wellFormed(s)),
  },
  {
    name: 'sandbox connect params and webhook',
    doc: (s) =>
      ({
        ...samples['sandbox-connect'],
        webhookUrl: `https://gw.example/?t=${s}`,
        callId: s,
        from: s,
        to: s,
      }) as VxmlDocument,
    check: (t, s) => {
      for (const p of findAll(t, 'param').filter((x) => x.attrs.name !== 'message'))
        expect(decodeEcmaString(p.attrs.expr!)).toBe(wellFormed(s));
    },
  },
  {
    name: 'grammar phrases and tags given directly',
    doc: (s) => ({
      ...ask,
      grammars: [
        {
          kind: 'srgs',
          mode: 'voice',
          root: s,
          items: [{ phrase: `${s} x`, tag: s }],
        } satisfies FieldGrammar,
      ],
    }),
    check: (t, s) => {
      const item = find(find(t, 'grammar'), 'item');
      expect(item.text).toBe(asText(`${s} x`));
      expect(decodeEcmaString(/^out=(.*);$/s.exec(find(item, 'tag').text)![1]!)).toBe(wellFormed(s));
    },
  },
  {
    name: 'intent names and training phrases',
    doc: (s) => ({
      ...ask,
      grammars: [
        buildIntentGrammar([{ name: `I ${s}`, utterances: [`say ${s}`] }], { maxPhraseLength: 10_000 }),
      ],
    }),
    check: (t, s) =>
      expect(decodeEcmaString(/^out=(.*);$/s.exec(find(t, 'tag').text)![1]!)).toBe(
        wellFormed(`I ${s}`.trim()),
      ),
  },
];

describe('hostile text', () => {
  for (const slot of slots) {
    it(`when the ${slot.name} is hostile, then the element structure is the benign one and the data comes back intact`, () => {
      const benign = elementPaths(render(slot.doc(BENIGN)));
      for (const s of [...HOSTILE, EVIL]) {
        const t = render(slot.doc(s));
        expect(elementPaths(t), JSON.stringify(s)).toEqual(benign);
        slot.check?.(t, s);
      }
    });
  }

  it('when say-as has an interpret-as that is not a name, then its text is spoken plainly', () => {
    const t = render({ ...ask, prompt: [{ type: 'say-as', interpretAs: EVIL, text: 'A1' }] });
    expect(findAll(t, 'say-as')).toHaveLength(0);
    expect(deepText(find(find(t, 'field'), 'prompt'))).toBe('A1');
  });

  it('when a property or return variable has a hostile name, then it is left out instead of breaking the document', () => {
    const a = render({ ...ask, documentProperties: { [EVIL]: 'x', timeout: '4s' } });
    expect(findAll(a, 'property').map((p) => p.attrs.name)).toEqual(['timeout']);
    const e = render({
      kind: 'end',
      callId: 'c',
      prompt: [],
      behaviour: 'return',
      returnVars: { [EVIL]: 'x' },
    });
    expect(find(e, 'return').attrs.namelist).toBe('endOfConversation callId');
  });

  it('when random text fills the prompt, the call variables and a phrase, then the structure holds and literals round-trip', () => {
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
    const str = fc.oneof(
      fc.string({ unit: anyUnit, maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(...HOSTILE),
    );
    const benign = elementPaths(
      parseXml(
        renderDocument({
          ...ask,
          prompt: [text('p')],
          grammars: [{ kind: 'srgs', mode: 'voice', root: 'r', items: [{ phrase: 'p', tag: 't' }] }],
        }),
      ),
    );
    fc.assert(
      fc.property(str, str, str, (a, b, c) => {
        const xml = renderDocument({
          ...ask,
          prompt: [text(a)],
          vars: { callId: b, from: c, turn: a },
          grammars: [{ kind: 'srgs', mode: 'voice', root: c, items: [{ phrase: `${b} p`, tag: a }] }],
        });
        rendered.push(xml);
        const t = parseXml(xml);
        expect(elementPaths(t)).toEqual(benign);
        expect(decodeEcmaString(t.children[0]!.attrs.expr!)).toBe(wellFormed(b));
        expect(decodeEcmaString(t.children[1]!.attrs.expr!)).toBe(wellFormed(c));
        expect(deepText(find(find(t, 'field'), 'prompt'))).toBe(asText(a));
      }),
      { numRuns: 150 },
    );
  });

  it('when every document rendered in this file is validated, then vxml.xsd accepts them all', async () => {
    expect(rendered.length).toBeGreaterThan(400);
    await assertValidVxml(rendered);
  });
});
