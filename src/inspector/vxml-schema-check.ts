/**
 * Checks documents against the W3C VoiceXML 2.1 schema set kept in vxml-templates/xsd (its README
 * says where each file comes from): libxml2 compiled to WebAssembly (xmllint-wasm), which runs each
 * check in a worker thread, so the event loop is not held. `vxml` checks against vxml.xsd, `srgs`
 * a standalone grammar against grammar.xsd. The schema files are read once, on the first check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

/** The repository's vxml-templates/xsd, from src/inspector or dist/inspector alike. */
const SCHEMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../vxml-templates/xsd');

export interface SchemaCheck {
  valid: boolean;
  /** libxml2's messages, one per problem (none when valid). */
  errors: string[];
}

type SchemaFile = { fileName: string; contents: string };
let files: SchemaFile[] | undefined;

function schemaFiles(dir: string): SchemaFile[] {
  if (!files) files = readdirSync(dir).filter((f) => f.endsWith('.xsd')).map((f) => ({ fileName: f, contents: readFileSync(join(dir, f), 'utf8') }));
  return files;
}

/** Checks one or more documents (one result for all of them) against vxml.xsd, or grammar.xsd for `srgs`. */
export async function vxmlSchemaCheck(docs: string | string[], schema: 'vxml' | 'srgs' = 'vxml', dir = SCHEMA_DIR): Promise<SchemaCheck> {
  const all = schemaFiles(dir);
  const mainName = schema === 'vxml' ? 'vxml.xsd' : 'grammar.xsd';
  const main = all.find((f) => f.fileName === mainName);
  if (!main) throw new Error(`the schema set has no ${mainName} (looked in ${dir})`);
  const list = Array.isArray(docs) ? docs : [docs];
  const ext = schema === 'vxml' ? 'vxml' : 'grxml';
  const result = await validateXML({
    xml: list.map((contents, i) => ({ fileName: `doc${i}.${ext}`, contents })),
    schema: [main],
    preload: all.filter((f) => f !== main),
    maxMemoryPages: 4096,
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}
