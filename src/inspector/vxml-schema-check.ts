/**
 * Checks documents against the W3C VoiceXML 2.1 schema set kept in vxml-templates/xsd (its README
 * says where each file comes from): libxml2 compiled to WebAssembly, through libxml2-wasm. Each
 * schema is compiled once per process, on its first use, and kept: a check then costs the parse and
 * validation of its documents (a few milliseconds for a gateway document) instead of loading and
 * compiling the whole schema set again, which took most of a second per check with the former
 * library. The check runs on the event loop; its one caller in the service is the operator's
 * validate route, whose body is bounded (1,000,000 characters). `vxml` checks against vxml.xsd,
 * `srgs` a standalone grammar against grammar.xsd.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XmlDocument, XmlLibError, XsdValidator, xmlRegisterInputProvider } from 'libxml2-wasm';
import { fsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';

/** The repository's vxml-templates/xsd, from src/inspector or dist/inspector alike. */
const SCHEMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../vxml-templates/xsd');

export interface SchemaCheck {
  valid: boolean;
  /** libxml2's messages, one per problem (none when valid). */
  errors: string[];
}

// the schema's includes and imports (xml.xsd, the SSML and SRGS parts) are read from its folder, and
// nothing else: a checked document that names another file (an external entity or DTD) gets nothing
const schemaFolders = new Set<string>();
xmlRegisterInputProvider({
  ...fsInputProviders,
  match: (name) => fsInputProviders.match(name) && schemaFolders.has(dirname(name.replace(/^file:\/\//, ''))),
});
const validators = new Map<string, XsdValidator>();

function validatorFor(dir: string, schema: 'vxml' | 'srgs'): XsdValidator {
  const path = join(dir, schema === 'vxml' ? 'vxml.xsd' : 'grammar.xsd');
  let v = validators.get(path);
  if (!v) {
    schemaFolders.add(dir);
    const doc = XmlDocument.fromBuffer(readFileSync(path), { url: path });
    v = XsdValidator.fromDoc(doc);
    doc.dispose();
    validators.set(path, v);
  }
  return v;
}

/** libxml2's messages, as `doc<i>.<ext>:<line>: <message>`. */
function messagesOf(err: unknown, name: string): string[] {
  if (err instanceof XmlLibError && err.details.length > 0)
    return err.details.map((d) => `${name}:${d.line}: ${d.message.trim()}`);
  return [`${name}: ${err instanceof Error ? err.message : String(err)}`];
}

/** Checks one or more documents (one result for all of them) against vxml.xsd, or grammar.xsd for `srgs`. */
export async function vxmlSchemaCheck(
  input: string | string[],
  schema: 'vxml' | 'srgs' = 'vxml',
  dir = SCHEMA_DIR,
): Promise<SchemaCheck> {
  const docs = Array.isArray(input) ? input : [input];
  const validator = validatorFor(dir, schema);
  const ext = schema === 'vxml' ? 'vxml' : 'grxml';
  const errors: string[] = [];
  docs.forEach((text, i) => {
    const name = `doc${i}.${ext}`;
    let doc: XmlDocument | undefined;
    try {
      doc = XmlDocument.fromString(text, { url: name });
      validator.validate(doc);
    } catch (err) {
      errors.push(...messagesOf(err, name));
    } finally {
      doc?.dispose();
    }
  });
  return { valid: errors.length === 0, errors };
}
