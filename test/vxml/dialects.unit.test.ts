/**
 * Dialect profiles: every profile renders every kind (with every entity grammar) validly; the w3c
 * default only uses the digits/boolean builtins; each profile's differences show in the output; and
 * src/vxml/DIALECTS.md prints the profiles as they are.
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  dialectNames,
  dialectProfile,
  dialectProfiles,
  entityGrammars,
  renderDocument,
  transcriptionGrammar,
  type AwaitSpec,
  type DialectName,
  type VxmlDocument,
} from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { askEntity, extraSamplesFor, samples } from './sample-documents.js';
import { findAll, parseXml, type XNode } from './xml-tree.js';

const here = dirname(fileURLToPath(import.meta.url));
const rendered: string[] = [];
function render(doc: VxmlDocument, dialect: DialectName): XNode {
  const xml = renderDocument(doc, { dialect });
  rendered.push(xml);
  return parseXml(xml);
}

const SPECS: AwaitSpec[] = [
  { kind: 'entity', entityType: 'number' },
  { kind: 'entity', entityType: 'digits' },
  { kind: 'entity', entityType: 'digits', minLength: 4, maxLength: 6 },
  { kind: 'entity', entityType: 'digits', minLength: 5, maxLength: 5 },
  { kind: 'entity', entityType: 'digits', minLength: 8, maxLength: 3 },
  { kind: 'entity', entityType: 'date' },
  { kind: 'entity', entityType: 'yesno' },
  { kind: 'entity', entityType: 'list', values: ['Small', 'medium!', 'LARGE', 'large', '12', '3#'] },
  { kind: 'entity', entityType: 'string' },
  { kind: 'intent' },
];

function entityAsks(dialect: DialectName): VxmlDocument[] {
  const base = { ...askEntity, vars: { ...askEntity.vars } };
  return SPECS.map((spec) => ({ ...base, grammars: entityGrammars(spec, dialect) }));
}

const W3C_BUILTINS = /^builtin:(dtmf|grammar)\/(digits|boolean)(\?.*)?$/;

describe('dialect profiles', () => {
  for (const dialect of dialectNames) {
    it(`when every kind and every entity grammar is rendered for ${dialect}, then each inline grammar's references resolve`, () => {
      const docs = [
        ...Object.values(samples),
        ...Object.values(extraSamplesFor(dialect)),
        ...entityAsks(dialect),
      ];
      for (const doc of docs) {
        const t = render(doc, dialect);
        for (const g of findAll(t, 'grammar').filter((x) => x.attrs.src === undefined)) {
          const ids = new Set(findAll(g, 'rule').map((r) => r.attrs.id));
          expect(ids).toContain(g.attrs.root);
          expect(findAll(g, 'rule').find((r) => r.attrs.id === g.attrs.root)!.attrs.scope).toBe('public');
          for (const ref of findAll(g, 'ruleref').filter((r) => r.attrs.uri))
            expect(ids).toContain(ref.attrs.uri!.slice(1));
        }
        const transfer = findAll(t, 'transfer')[0];
        if (transfer) expect('type' in transfer.attrs && 'bridge' in transfer.attrs).toBe(false);
      }
    });
  }

  it('when w3c renders any entity, or is handed builtin:grammar/number, then only the digits and boolean builtins are used', () => {
    const docs = [
      ...entityAsks('w3c'),
      {
        ...askEntity,
        grammars: [
          { kind: 'builtin', mode: 'voice', src: 'builtin:grammar/number' },
          { kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/date' },
        ],
      } as VxmlDocument,
    ];
    for (const doc of docs) {
      for (const g of findAll(render(doc, 'w3c'), 'grammar')) {
        if (g.attrs.src?.startsWith('builtin:')) expect(g.attrs.src).toMatch(W3C_BUILTINS);
      }
    }
    expect(renderDocument(docs.at(-1)!)).not.toContain('builtin:grammar/number');
  });

  it('when digits have length rules, then w3c passes them as builtin parameters (Appendix P syntax)', () => {
    expect(entityGrammars(SPECS[2]!, 'w3c')).toEqual([
      { kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/digits?minlength=4;maxlength=6' },
      { kind: 'builtin', mode: 'voice', src: 'builtin:grammar/digits?minlength=4;maxlength=6' },
    ]);
    expect(entityGrammars(SPECS[3]!, 'w3c')[0]).toMatchObject({ src: 'builtin:dtmf/digits?length=5' });
    expect(entityGrammars(SPECS[4]!, 'w3c')[0]).toMatchObject({
      src: 'builtin:dtmf/digits?minlength=3;maxlength=8',
    });
  });

  it('when number, date and lists are needed in w3c, then voice gets inline SRGS and DTMF gets digits', () => {
    expect(entityGrammars(SPECS[0]!, 'w3c')).toEqual([
      { kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/digits' },
      { kind: 'inline-entity', mode: 'voice', entity: 'number' },
    ]);
    expect(entityGrammars(SPECS[5]!, 'w3c')).toEqual([
      { kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/digits?length=8' },
      { kind: 'inline-entity', mode: 'voice', entity: 'date' },
    ]);
    const list = entityGrammars(SPECS[7]!, 'w3c');
    expect(
      list.map((g) => g.kind === 'srgs' && [g.mode, g.items.map((i) => `${i.phrase}=${i.tag}`)]),
    ).toEqual([
      ['dtmf', ['1 2=12', '3 #=3#']],
      ['voice', ['small=Small', 'medium=medium!', 'large=LARGE', '12=12', '3=3#']],
    ]);
    expect(entityGrammars(SPECS[8]!, 'w3c')).toEqual([]);
    expect(entityGrammars(SPECS[9]!, 'w3c')).toEqual([]);
  });

  it('when the dialect is voxeo-prophecy, then number and date use the builtins in both modes', () => {
    expect(entityGrammars(SPECS[0]!, 'voxeo-prophecy').map((g) => 'src' in g && g.src)).toEqual([
      'builtin:dtmf/number',
      'builtin:grammar/number',
    ]);
    expect(entityGrammars(SPECS[5]!, 'voxeo-prophecy').map((g) => 'src' in g && g.src)).toEqual([
      'builtin:dtmf/date',
      'builtin:grammar/date',
    ]);
  });

  it('when the dialect is cisco-vvb, then no voice grammar is a builtin', () => {
    for (const spec of SPECS)
      for (const g of entityGrammars(spec, 'cisco-vvb'))
        if (g.kind === 'builtin') expect(g.mode).toBe('dtmf');
    expect(entityGrammars(SPECS[6]!, 'cisco-vvb')[1]).toEqual({
      kind: 'inline-entity',
      mode: 'voice',
      entity: 'boolean',
    });
  });

  it('when the dialect is jvoicexml, then there is no transcription grammar, transfers use bridge="true" and fetchaudio is left out', () => {
    expect(transcriptionGrammar('jvoicexml', 'builtin:speech/transcribe')).toBeNull();
    expect(transcriptionGrammar('w3c', 'builtin:grammar/text')).toEqual({
      kind: 'transcription',
      src: 'builtin:grammar/text',
    });
    expect(transcriptionGrammar('w3c')).toEqual({ kind: 'transcription', src: 'builtin:speech/transcribe' });
    expect(findAll(render(samples.transfer, 'jvoicexml'), 'transfer')[0]!.attrs).toMatchObject({
      bridge: 'true',
    });
    expect(findAll(render(samples.transfer, 'jvoicexml'), 'transfer')[0]!.attrs.type).toBeUndefined();
    expect(findAll(render(samples.wait, 'jvoicexml'), 'submit')[0]!.attrs.fetchaudio).toBeUndefined();
    expect(findAll(render(samples.wait, 'w3c'), 'submit')[0]!.attrs.fetchaudio).toBeDefined();
  });

  it('when the dialect setting is unknown or missing, then the w3c profile applies', () => {
    expect(dialectProfile('nonsense')).toBe(dialectProfiles.w3c);
    expect(dialectProfile(undefined)).toBe(dialectProfiles.w3c);
    expect(dialectProfile('__proto__')).toBe(dialectProfiles.w3c);
    expect(renderDocument(samples.transfer, { dialect: 'bogus' as DialectName })).toBe(
      renderDocument(samples.transfer),
    );
  });

  it('when DIALECTS.md is compared with the profiles, then its table is the one they print', () => {
    const path = resolve(here, '../../src/vxml/DIALECTS.md');
    const md = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const [start, end] = ['<!-- profiles:start -->', '<!-- profiles:end -->'];
    const generated = `${start}\n${dialectsMarkdown()}${end}`;
    const current = md.includes(start) ? md.slice(md.indexOf(start), md.indexOf(end) + end.length) : '';
    if (process.env.UPDATE_VXML_GOLDEN === '1' && md.includes(start))
      writeFileSync(path, md.replace(current, generated));
    else expect(current).toBe(generated);
  });

  it('when every document rendered in this file is validated, then vxml.xsd accepts them all', async () => {
    await assertValidVxml(rendered);
  });
});

function dialectsMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : 'none');
  const rows = dialectNames.map((n) => {
    const p = dialectProfiles[n];
    const transcription =
      p.transcription === null
        ? 'none (node/intent grammar; free text is recorded)'
        : p.transcription === 'settings'
          ? 'IVR settings (default builtin:speech/transcribe)'
          : p.transcription;
    return `| \`${n}\` | ${list(p.builtins.voice)} | ${list(p.builtins.dtmf)} | ${p.digitsParameters ? 'yes' : 'no'} | ${transcription} | ${p.transferStyle === 'type' ? 'type="bridge"' : 'bridge="true"'} | ${p.fetchaudio} | ${p.submitFetchtimeout ?? '-'} | ${Object.keys(p.documentProperties).length ? JSON.stringify(p.documentProperties) : '-'} | ${p.hangupInCatch} |`;
  });
  const facts = dialectNames.flatMap((n) => [
    '',
    `### \`${n}\`: ${dialectProfiles[n].title}`,
    '',
    '| What | Source | Confidence |',
    '| --- | --- | --- |',
    ...dialectProfiles[n].facts.map((f) => `| ${cell(f.what)} | ${cell(f.source)} | ${f.confidence} |`),
  ]);
  return [
    '| Dialect | Voice builtins | DTMF builtins | digits parameters | Transcription grammar | Transfer | fetchaudio | Submit fetchtimeout | Document properties | Hang-up in a catch |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    ...facts,
    '',
  ].join('\n');
}
