/**
 * Golden files: every sample document in every dialect, byte for byte (test/fixtures/vxml/<dialect>/),
 * and the indented w3c references in vxml-templates/ that people review beside the spec examples.
 * UPDATE_VXML_GOLDEN=1 rewrites both from the current renderer.
 */
import { describe, it, expect } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDocument, dialectNames, type DialectName, type VxmlDocument } from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { extraSamplesFor, samples } from './sample-documents.js';
import { canonical, parseXml } from './xml-tree.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../fixtures/vxml');
const templates = resolve(here, '../../vxml-templates');
const UPDATE = process.env.UPDATE_VXML_GOLDEN === '1';

const all = (dialect: DialectName): Record<string, VxmlDocument> => ({
  ...samples,
  ...extraSamplesFor(dialect),
});
const rendered: string[] = [];

function golden(path: string, actual: string): void {
  if (UPDATE || !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    if (!UPDATE) throw new Error(`golden ${path} was missing and has been written; review it and run again`);
  }
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('golden documents', () => {
  for (const dialect of dialectNames) {
    for (const [name, doc] of Object.entries(all(dialect))) {
      it(`when the ${name} sample is rendered for ${dialect}, then it equals fixtures/vxml/${dialect}/${name}.vxml`, () => {
        const xml = renderDocument(doc, { dialect });
        rendered.push(xml);
        golden(join(fixtures, dialect, `${name}.vxml`), xml);
      });
    }
  }

  for (const [name, doc] of Object.entries(all('w3c'))) {
    it(`when the ${name} sample is rendered indented, then it equals vxml-templates/${name}.vxml and has the compact tree`, () => {
      const pretty = renderDocument(doc, { pretty: true });
      rendered.push(pretty);
      golden(join(templates, `${name}.vxml`), `${pretty}\n`);
      expect(canonical(parseXml(pretty))).toEqual(canonical(parseXml(renderDocument(doc))));
    });
  }

  it('when every document rendered in this file is validated, then vxml.xsd accepts them all', async () => {
    expect(rendered.length).toBe((dialectNames.length + 1) * Object.keys(all('w3c')).length);
    await assertValidVxml(rendered);
  });
});
