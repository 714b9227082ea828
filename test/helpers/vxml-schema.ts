/**
 * The real XSD check of VoiceXML documents: libxml2 (xmllint-wasm) against the W3C VoiceXML 2.1
 * schema set kept as fixtures in test/fixtures/vxml21-xsd (where each file comes from, and its
 * licence, are in that folder). Every document a test produces goes through here.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

const here = dirname(fileURLToPath(import.meta.url));

const schemaFolder = resolve(here, '../fixtures/vxml21-xsd');

function findSchemaDir(): string {
  if (!existsSync(join(schemaFolder, 'vxml.xsd'))) throw new Error(`VoiceXML XSD set missing: ${schemaFolder}/vxml.xsd`);
  return schemaFolder;
}

type SchemaFile = { fileName: string; contents: string };
let cache: { main: SchemaFile; preload: SchemaFile[]; grammarMain: SchemaFile } | undefined;

function schemaFiles() {
  if (cache) return cache;
  const dir = findSchemaDir();
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.xsd'))
    .map((f) => ({ fileName: f, contents: readFileSync(join(dir, f), 'utf8') }));
  const main = all.find((f) => f.fileName === 'vxml.xsd')!;
  const grammarMain = all.find((f) => f.fileName === 'grammar.xsd')!;
  cache = { main, preload: all, grammarMain };
  return cache;
}

export interface SchemaResult {
  valid: boolean;
  errors: string[];
}

/** Validates one or more VoiceXML documents against vxml.xsd; one result for all of them. */
export async function validateVxml(docs: string | string[]): Promise<SchemaResult> {
  const list = Array.isArray(docs) ? docs : [docs];
  const { main, preload } = schemaFiles();
  const result = await validateXML({
    xml: list.map((contents, i) => ({ fileName: `doc${i}.vxml`, contents })),
    schema: [main],
    preload: preload.filter((p) => p.fileName !== main.fileName),
    maxMemoryPages: 4096,
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

/** Validates a standalone SRGS 1.0 grammar document against grammar.xsd. */
export async function validateSrgs(doc: string): Promise<SchemaResult> {
  const { grammarMain, preload } = schemaFiles();
  const result = await validateXML({
    xml: [{ fileName: 'grammar.grxml', contents: doc }],
    schema: [grammarMain],
    preload: preload.filter((p) => p.fileName !== grammarMain.fileName),
    maxMemoryPages: 4096,
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

/** Throws with libxml2's messages when the document is not valid VoiceXML 2.1. */
export async function assertValidVxml(doc: string | string[]): Promise<void> {
  const r = await validateVxml(doc);
  if (!r.valid) {
    const shown = (Array.isArray(doc) ? doc.join('\n-----\n') : doc).slice(0, 4000);
    throw new Error(`VoiceXML document is not valid against vxml.xsd:\n${r.errors.join('\n')}\n${shown}`);
  }
}
