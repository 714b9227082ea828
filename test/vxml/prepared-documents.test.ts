/**
 * Prepared documents (render-document.ts, builder-core.ts): the markup of a document is kept by
 * everything but the call's own values, and a later call only fills in its callId, from and turn.
 * Keeping must never change what a call gets: each document is compared with one built afresh.
 */
import { describe, it, expect } from 'vitest';
import { buildIntentGrammar, dialectNames, renderDocument, type VxmlDocument } from '../../src/vxml/index.js';
import { CallValue, XmlWriter, fillPrepared } from '../../src/vxml/builder-core.js';
import { dialectProfile } from '../../src/vxml/dialects.js';
import { prepareDocument, preparedDocumentStats } from '../../src/vxml/render-document.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { askIntent, extraSamples, samples, text } from './sample-documents.js';
import { decodeEcmaString, findAll, parseXml, wellFormed } from './xml-tree.js';

type Vars = { callId: string; from: string; turn: string };

const WEBHOOK_OF = (doc: VxmlDocument): string => ('submit' in doc ? doc.submit.url : '');

/** The document built from scratch, never from kept markup. */
function fresh(doc: VxmlDocument, dialect?: string): string {
  const v = 'vars' in doc ? doc.vars : { callId: doc.kind === 'end' ? doc.callId : '', from: '', turn: '' };
  return fillPrepared(prepareDocument(doc, dialectProfile(dialect)), { callId: v.callId ?? '', from: v.from ?? '', turn: String(v.turn ?? '') });
}

/** The call's document-level `<var>` values, decoded. */
function documentVars(xml: string): Record<string, string> {
  const root = parseXml(xml);
  const calls = root.children.filter((c) => c.name === 'var' && ['callId', 'from', 'turn'].includes(c.attrs.name!));
  return Object.fromEntries(calls.map((v) => [v.attrs.name!, decodeEcmaString(v.attrs.expr!)]));
}

const withVars = (doc: VxmlDocument, vars: Vars): VxmlDocument => {
  if ('vars' in doc) return { ...doc, vars } as VxmlDocument;
  if (doc.kind === 'end') return { ...doc, callId: vars.callId };
  return doc;
};

const hostile: Vars = { callId: `c-'"<&>\u2028\\x\ud800-end`, from: `+1 "555" <x> & 'y'`, turn: '7' };
const plain: Vars = { callId: 'c0a8012e-7d41-4b6a-9f3e-5e2d1c0b9a88', from: '+14155550000', turn: '3' };

describe('prepared documents', () => {
  it('when two calls get the same ask document, then the second is filled in from kept markup with its own escaped values', async () => {
    const doc = { ...askIntent, prompt: [text(`kept ${Math.random()}`)] } satisfies VxmlDocument;
    const first = renderDocument(withVars(doc, plain));
    const kept = preparedDocumentStats().entries;
    const second = renderDocument(withVars(doc, hostile));
    expect(preparedDocumentStats().entries).toBe(kept);
    expect(documentVars(first)).toMatchObject({ callId: plain.callId, from: plain.from, turn: plain.turn });
    expect(documentVars(second)).toMatchObject({ callId: wellFormed(hostile.callId), from: hostile.from, turn: hostile.turn });
    expect(second).toBe(fresh(withVars(doc, hostile)));
    await assertValidVxml([first, second]);
  });

  it('when the first document of a call declares the subdialog form variables, then they carry this call values too', () => {
    const doc = { ...askIntent, subdialogEntry: true, vars: plain } satisfies VxmlDocument;
    renderDocument(doc);
    const xml = renderDocument(withVars(doc, hostile));
    const form = findAll(parseXml(xml), 'form')[0]!;
    const formVars = Object.fromEntries(form.children.filter((c) => c.name === 'var').map((v) => [v.attrs.name!, decodeEcmaString(v.attrs.expr!)]));
    expect(formVars).toMatchObject({ callId: wellFormed(hostile.callId), from: hostile.from, message: '', to: '' });
  });

  it('when every kind is rendered for two calls in turn, then each document is the one built afresh', async () => {
    const docs = [...Object.values(samples), ...Object.values(extraSamples)];
    const out: string[] = [];
    for (const dialect of dialectNames) {
      for (const doc of docs) {
        for (const vars of [plain, hostile, plain]) {
          const d = withVars(doc, vars);
          const xml = renderDocument(d, { dialect });
          expect(xml).toBe(fresh(d, dialect));
          out.push(xml);
        }
      }
    }
    await assertValidVxml(out.filter((_, i) => i % 3 === 1));
  });

  it('when a document differs from a kept one in anything but the call values, then it is not served the kept markup', () => {
    const base = { ...askIntent, vars: plain, prompt: [text(`base ${Math.random()}`)] } satisfies VxmlDocument;
    const variants: VxmlDocument[] = [
      { ...base, prompt: [text('another prompt')] },
      { ...base, noInputPrompt: [text('another no-input prompt')] },
      { ...base, noMatchPrompt: [text('another no-match prompt')] },
      { ...base, retries: 3 },
      { ...base, lang: 'de-DE' },
      { ...base, fieldName: 'answer' },
      { ...base, hangupCatch: false },
      { ...base, subdialogEntry: true },
      { ...base, submit: { url: 'https://gateway.example.com/ivr/hooks/st-other?token=t2' } },
      { ...base, submit: { ...base.submit, fetchtimeout: '7s' } },
      { ...base, documentProperties: { ...base.documentProperties, timeout: '9s' } },
      { ...base, fieldProperties: { termchar: '*' } },
      // the same structure and size, other phrases: a grammar is kept by the digest of its phrases
      { ...base, grammars: [buildIntentGrammar([{ name: 'BookTable', utterances: ['Book a chair', 'Reserve a chair for tonight!'] }, { name: 'CheckBooking', utterances: ['Check my booking', 'change my booking'] }])] },
      { ...base, grammars: [{ kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/digits' }] },
    ];
    const baseXml = renderDocument(base);
    for (const v of variants) {
      renderDocument(base);
      const xml = renderDocument(v);
      expect(xml).toBe(fresh(v));
      expect(xml).not.toBe(baseXml);
    }
    // the dialect is part of what is kept apart
    renderDocument(base, { dialect: 'w3c' });
    expect(renderDocument(base, { dialect: 'cisco-vvb' })).toBe(fresh(base, 'cisco-vvb'));
  });

  it('when other documents of other kinds differ only in their content, then each gets its own', () => {
    const pairs: Array<[VxmlDocument, VxmlDocument]> = [
      [samples.say, { ...samples.say, prompt: [text('Other words.')] } as VxmlDocument],
      [samples.end, { ...samples.end, behaviour: 'disconnect' } as VxmlDocument],
      [samples.end, { ...samples.end, returnVars: { reason: 'done' } } as VxmlDocument],
      [samples.transfer, { ...samples.transfer, destination: 'tel:+15550101' } as VxmlDocument],
      [samples.wait, { ...samples.wait, prompt: [text('Still checking.')] } as VxmlDocument],
      [samples.error, { ...samples.error, error: 'agent_error' } as VxmlDocument],
    ];
    for (const [a, b] of pairs) {
      const xa = renderDocument(a);
      const xb = renderDocument(b);
      expect(xb).not.toBe(xa);
      expect(xb).toBe(fresh(b));
      expect(renderDocument(a)).toBe(xa);
    }
  });

  it('when a say, transfer, wait, end, error or bootstrap document differs in any field, then each gets its own markup', () => {
    const other = 'https://gateway.example.com/ivr/hooks/st-other?token=t2';
    const variants: Array<[VxmlDocument, VxmlDocument[]]> = [
      [samples.say, [
        { ...samples.say, lang: 'fr-FR' } as VxmlDocument,
        { ...samples.say, submit: { url: other } } as VxmlDocument,
        { ...samples.say, submit: { url: WEBHOOK_OF(samples.say), method: 'get' } } as VxmlDocument,
        { ...samples.say, submit: { url: WEBHOOK_OF(samples.say), fetchtimeout: '3s' } } as VxmlDocument,
      ]],
      [samples.transfer, [
        { ...samples.transfer, aai: 'skillGroupId=sg-other;skillGroupName=Other' } as VxmlDocument,
        { ...samples.transfer, connecttimeout: '10s' } as VxmlDocument,
        { ...samples.transfer, submit: { url: other } } as VxmlDocument,
        { ...samples.transfer, lang: 'es-ES' } as VxmlDocument,
      ]],
      [samples.wait, [
        { ...samples.wait, submit: { url: WEBHOOK_OF(samples.wait) } } as VxmlDocument, // no fetchaudio
        { ...samples.wait, submit: { url: other, fetchaudio: 'https://gateway.example.com/audio/other.wav' } } as VxmlDocument,
      ]],
      [samples.end, [
        { ...samples.end, lang: 'de-DE' } as VxmlDocument,
        { ...samples.end, returnVars: { reason: 'done' } } as VxmlDocument,
        { ...samples.end, returnVars: { reason: 'other' } } as VxmlDocument,
      ]],
      [samples.error, [{ ...samples.error, lang: 'it-IT' } as VxmlDocument, { ...samples.error, prompt: [text('Other apology.')] } as VxmlDocument]],
      [samples.bootstrap, [{ ...samples.bootstrap, submit: { url: other } } as VxmlDocument]],
    ];
    for (const dialect of dialectNames) {
      for (const [base, others] of variants) {
        const baseXml = renderDocument(base, { dialect });
        for (const v of others) {
          renderDocument(base, { dialect });
          const xml = renderDocument(v, { dialect });
          expect(xml).toBe(fresh(v, dialect));
          if (dialect === 'w3c') expect(xml).not.toBe(baseXml);
        }
      }
    }
  });

  it('when a returned value is missing, then the document is not the one without that value', () => {
    const without = renderDocument({ ...samples.end, returnVars: {} } as VxmlDocument);
    const missing = { ...samples.end, returnVars: { reason: undefined as unknown as string } } as VxmlDocument;
    expect(renderDocument(missing)).toBe(fresh(missing));
    expect(renderDocument(missing)).not.toBe(without);
  });

  it('when every kind with call values is rendered for two calls, then each declares its own callId and turn', () => {
    const a: Vars = { callId: `one-'"<&>`, from: '+1 (555) "a"', turn: '11' };
    const b: Vars = { callId: 'two\u2028', from: '', turn: '12' };
    for (const doc of [samples.ask, samples.say, samples.transfer, samples.wait]) {
      for (const vars of [a, b, a]) {
        const got = documentVars(renderDocument(withVars(doc, vars)));
        expect(got.callId).toBe(vars.callId);
        expect(got.turn).toBe(vars.turn);
      }
    }
    for (const vars of [a, b]) expect(documentVars(renderDocument(withVars(samples.end, vars))).callId).toBe(vars.callId);
  });

  it('when a document is larger than a sixteenth of the bound, then it is built each time and pushes nothing out', () => {
    renderDocument(askIntent);
    const before = preparedDocumentStats();
    const big = { ...askIntent, prompt: [text('x'.repeat(300_000))] } satisfies VxmlDocument;
    expect(renderDocument(big)).toBe(fresh(big));
    expect(preparedDocumentStats()).toEqual(before);
  });

  it('when the store-retry document repeats a caller input, then it is built for that call and not kept', () => {
    const before = preparedDocumentStats().entries;
    for (let i = 0; i < 5; i++) {
      const doc: VxmlDocument = { kind: 'wait', vars: { ...plain, turn: String(i) }, submit: { url: 'https://gw.example.com/ivr/hooks/st?token=t' }, prompt: [text('Hold on.')], resubmit: { retry: '1', message: `said ${i}`, from: plain.from } };
      const xml = renderDocument(doc);
      expect(xml).toBe(fresh(doc));
      expect(decodeEcmaString(findAll(parseXml(xml), 'var').find((v) => v.attrs.name === 'message')!.attrs.expr!)).toBe(`said ${i}`);
    }
    expect(preparedDocumentStats().entries).toBe(before);
  });

  it('when thousands of distinct documents are rendered, then the kept markup stays within its bounds', () => {
    for (let i = 0; i < 1_000; i++) renderDocument({ ...askIntent, prompt: [text(`prompt number ${i} `.repeat(20))] });
    const stats = preparedDocumentStats();
    expect(stats.entries).toBeLessThanOrEqual(256);
    expect(stats.chars).toBeLessThanOrEqual(4_000_000);
  });

  it('when a call value is written into a cached fragment or a finished string, then the builder refuses', () => {
    const fragment = new XmlWriter(false);
    expect(() => fragment.open(0, 'var', { name: 'callId', expr: CallValue.callId })).toThrow(/cached fragment/);
    const doc = new XmlWriter(true);
    doc.open(0, 'var', { name: 'callId', expr: CallValue.callId });
    expect(() => doc.end()).toThrow(/prepared/);
    const prepared = doc.prepare();
    expect(prepared.slots).toEqual(['callId']);
    expect(fillPrepared(prepared, { callId: `a'b<`, from: '', turn: '' })).toBe(`<?xml version="1.0" encoding="UTF-8"?><var name="callId" expr="'a\\'b\\x3C'"/>`);
  });

  it('when call values sit between other attributes and inside elements with content, then each lands in its own place', () => {
    const w = new XmlWriter(true);
    const form = w.open(0, 'form', { id: 'f' });
    w.open(form, 'var', { name: 'turn', expr: CallValue.turn, note: 'a"b' });
    const block = w.open(form, 'block', { from: CallValue.from });
    w.text(block, 'x & y');
    w.open(block, 'var', { expr: CallValue.callId });
    w.open(0, 'n', { count: 5 as unknown as string });
    const p = w.prepare();
    expect(p.slots).toEqual(['turn', 'from', 'callId']);
    expect(fillPrepared(p, { callId: 'C', from: 'F', turn: '7' })).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><form id="f"><var name="turn" expr="'7'" note="a&quot;b"/><block from="'F'">x &amp; y<var expr="'C'"/></block></form><n count="5"/>`,
    );
  });
});
