/**
 * Every `<field>` of every document the renderer can produce, in every dialect, can be filled by a
 * grammar-based browser: it carries a `<grammar>` the dialect supports (or a `type` the dialect
 * lists). The schema alone allows a field without any, which such a browser refuses with
 * error.semantic ("No grammars defined for the input of form item"): issue 31, finding 1.
 */
import { describe, expect, it } from 'vitest';
import {
  dialectNames,
  dialectProfile,
  entityGrammars,
  renderDocument,
  transcriptionGrammar,
  withTranscription,
  type AwaitSpec,
  type DialectName,
  type FieldGrammar,
  type VxmlDocument,
} from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { askEntity, askIntent, extraSamplesFor, samples } from './sample-documents.js';
import { findAll, parseXml, type XNode } from './xml-tree.js';

const SPECS: AwaitSpec[] = [
  { kind: 'intent' },
  { kind: 'entity', entityType: 'string' },
  { kind: 'entity', entityType: 'number' },
  { kind: 'entity', entityType: 'digits', minLength: 4, maxLength: 6 },
  { kind: 'entity', entityType: 'date' },
  { kind: 'entity', entityType: 'yesno' },
  { kind: 'entity', entityType: 'list', values: ['small', 'large', '12'] },
];

/** Node grammars an operator may set, some of which a dialect lacks. */
const NODE_GRAMMARS: FieldGrammar[][] = [
  [{ kind: 'builtin', mode: 'voice', src: 'builtin:grammar/currency' }],
  [
    { kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/phone' },
    { kind: 'builtin', mode: 'voice', src: 'builtin:grammar/number' },
  ],
  [{ kind: 'builtin', mode: 'voice', src: 'builtin:speech/transcribe' }],
  [{ kind: 'uri', mode: 'voice', src: 'https://grammars.example.com/menu.grxml' }],
];

/**
 * The asks the webhook can answer in a dialect: every await and every set of node grammars, with
 * transcription off and on (then the transcription grammar replaces the voice ones, DTMF stays).
 */
function asks(dialect: DialectName): VxmlDocument[] {
  const out: VxmlDocument[] = [];
  const sets = [
    ...SPECS.map((spec) => (spec.kind === 'intent' ? askIntent.grammars : entityGrammars(spec, dialect))),
    ...NODE_GRAMMARS,
  ];
  for (const off of sets) {
    out.push({ ...askEntity, grammars: off });
    out.push({ ...askEntity, grammars: withTranscription(off, dialect, 'builtin:speech/transcribe') });
  }
  return out;
}

/** The `mode` of a field's grammar as the browser takes it: its attribute, or a builtin's URI, or an inline grammar's own. */
function modeOf(g: XNode): string {
  return g.attrs.mode ?? (/^builtin:dtmf\//i.test(g.attrs.src ?? '') ? 'dtmf' : 'voice');
}

const BUILTIN = /^builtin:(dtmf|grammar|voice|speech)\/([a-z]+)/i;

/** Why a field's grammar cannot be used in the dialect, or undefined when it can. */
function unusable(g: XNode, field: XNode, dialect: DialectName): string | undefined {
  const p = dialectProfile(dialect);
  const src = g.attrs.src;
  if (src === undefined) return findAll(g, 'rule').length > 0 ? undefined : 'an inline grammar without rules';
  const m = BUILTIN.exec(src);
  if (!m) return undefined;
  const [, uriMode, type] = m as unknown as [string, string, string];
  if (uriMode.toLowerCase() === 'speech' || type.toLowerCase() === 'transcribe') {
    return p.transcription === null ? `${src}: ${dialect} has no transcription` : undefined;
  }
  const mode = uriMode.toLowerCase() === 'dtmf' || g.attrs.mode === 'dtmf' ? 'dtmf' : 'voice';
  return (p.builtins[mode] as readonly string[]).includes(type.toLowerCase())
    ? undefined
    : `${src} in field ${field.attrs.name}: ${dialect} lacks it`;
}

describe('every field can be filled', () => {
  const rendered: string[] = [];
  for (const dialect of dialectNames) {
    const docs = [...Object.values(samples), ...Object.values(extraSamplesFor(dialect)), ...asks(dialect)];

    it(`when every document kind is rendered for ${dialect}, then each field has a grammar or a type the dialect supports`, () => {
      let fields = 0;
      for (const doc of docs) {
        const xml = renderDocument(doc, { dialect });
        rendered.push(xml);
        for (const field of findAll(parseXml(xml), 'field')) {
          fields++;
          const grammars = field.children.filter((c) => c.name === 'grammar');
          const type = field.attrs.type?.split('?')[0];
          const typeOk =
            type !== undefined &&
            [...dialectProfile(dialect).builtins.voice, ...dialectProfile(dialect).builtins.dtmf].includes(
              type as never,
            );
          expect(
            grammars.length > 0 || typeOk,
            `field ${field.attrs.name} of a ${doc.kind} document has no grammar and no supported type`,
          ).toBe(true);
          for (const g of grammars) expect(unusable(g, field, dialect)).toBeUndefined();
        }
      }
      expect(fields).toBeGreaterThan(docs.length / 2);
    });

    it(`when transcription is on in ${dialect}, then an entity's keys stay beside the transcription grammar, and the voice grammars go`, () => {
      const transcription = transcriptionGrammar(dialect, 'builtin:speech/transcribe');
      const keyed: AwaitSpec[] = SPECS.filter((s) => s.kind === 'entity' && s.entityType !== 'string');
      expect(keyed).toHaveLength(5);
      for (const spec of keyed) {
        const grammars = withTranscription(
          entityGrammars(spec, dialect),
          dialect,
          'builtin:speech/transcribe',
        );
        const field = findAll(parseXml(renderDocument({ ...askEntity, grammars }, { dialect })), 'field')[0]!;
        const modes = field.children.filter((c) => c.name === 'grammar').map(modeOf);
        const what = `${JSON.stringify(spec)} in ${dialect}`;
        expect(
          modes.filter((m) => m === 'dtmf'),
          what,
        ).toHaveLength(1);
        // the transcription grammar is the only voice grammar; where the dialect has none, the entity's voice grammar stays
        expect(
          modes.filter((m) => m === 'voice'),
          what,
        ).toHaveLength(1);
        const voice = field.children.find((c) => c.name === 'grammar' && modeOf(c) === 'voice')!;
        if (transcription) expect(voice.attrs.src, what).toBe('builtin:speech/transcribe');
        else expect(voice.attrs.src, what).not.toBe('builtin:speech/transcribe');
      }
    });

    it(`when free text is asked for in ${dialect} with no transcription, then the caller is recorded instead of a grammarless field`, () => {
      const t = parseXml(
        renderDocument(
          { ...askIntent, grammars: entityGrammars({ kind: 'entity', entityType: 'string' }, dialect) },
          { dialect },
        ),
      );
      expect(findAll(t, 'field')).toHaveLength(0);
      const record = findAll(t, 'record');
      expect(record.map((r) => r.attrs.name)).toEqual(['userinput']);
      const submit = findAll(findAll(record[0]!, 'filled')[0]!, 'submit')[0]!;
      expect(submit.attrs.namelist).toBe('callId from turn event recording');
    });
  }

  it('when all of them are validated, then vxml.xsd accepts them', async () => {
    expect(rendered.length).toBeGreaterThan(0);
    for (let i = 0; i < rendered.length; i += 50) await assertValidVxml(rendered.slice(i, i + 50));
  });
});
