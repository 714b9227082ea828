/**
 * The real XSD check of VoiceXML documents: libxml2 (libxml2-wasm) against the W3C VoiceXML 2.1
 * schema set in vxml-templates/xsd (where each file comes from, and its licence, are in that
 * folder), through the service's own check (src/inspector/vxml-schema-check.ts). Every document a
 * test produces goes through here.
 */
import { vxmlSchemaCheck, type SchemaCheck } from '../../src/inspector/vxml-schema-check.js';

export type SchemaResult = SchemaCheck;

/** Validates one or more VoiceXML documents against vxml.xsd; one result for all of them. */
export function validateVxml(docs: string | string[]): Promise<SchemaResult> {
  return vxmlSchemaCheck(docs, 'vxml');
}

/** Validates a standalone SRGS 1.0 grammar document against grammar.xsd. */
export function validateSrgs(doc: string): Promise<SchemaResult> {
  return vxmlSchemaCheck(doc, 'srgs');
}

/** Throws with libxml2's messages when the document is not valid VoiceXML 2.1. */
export async function assertValidVxml(doc: string | string[]): Promise<void> {
  const r = await validateVxml(doc);
  if (!r.valid) {
    const shown = (Array.isArray(doc) ? doc.join('\n-----\n') : doc).slice(0, 4000);
    throw new Error(`VoiceXML document is not valid against vxml.xsd:\n${r.errors.join('\n')}\n${shown}`);
  }
}
