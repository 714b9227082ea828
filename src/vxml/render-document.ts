/**
 * renderDocument: a VxmlDocument (document-spec.ts) → a VoiceXML 2.1 string that validates against
 * vxml.xsd, in the given dialect. Pure: no I/O and no state; every document is built afresh through
 * the typed builder.
 */
import { askDocument } from './ask-document.js';
import type { VxmlDocument } from './document-spec.js';
import { dialectProfile, type DialectName } from './dialects.js';
import { gatewayDocuments } from './gateway-documents.js';
import { sandboxDocuments } from './sandbox-documents.js';
import { VxmlBuilder } from './vxml-builder.js';

export interface RenderOptions {
  /** IVR setting `dialect`; unknown or missing = w3c. */
  dialect?: DialectName;
  /** Indented output for people (whitespace inside prompts changes); the gateway serves compact output. */
  pretty?: boolean;
}

const DEFAULT_LANG = 'en-US';

export function renderDocument(doc: VxmlDocument, opts: RenderOptions = {}): string {
  const p = dialectProfile(opts.dialect);
  const b = VxmlBuilder.document(
    doc.kind === 'bootstrap' ? undefined : (doc.lang ?? DEFAULT_LANG),
    'voice' in doc ? doc.voice : undefined,
  );
  switch (doc.kind) {
    case 'ask':
      askDocument(b, doc, p);
      break;
    case 'say':
      gatewayDocuments.say(b, doc, p);
      break;
    case 'end':
      gatewayDocuments.end(b, doc);
      break;
    case 'transfer':
      gatewayDocuments.transfer(b, doc, p);
      break;
    case 'wait':
      gatewayDocuments.wait(b, doc, p);
      break;
    case 'error':
      gatewayDocuments.error(b, doc);
      break;
    case 'bootstrap':
      gatewayDocuments.bootstrap(b, doc, p);
      break;
    case 'sandbox-login':
      sandboxDocuments['sandbox-login'](b, doc, p);
      break;
    case 'sandbox-connect':
      sandboxDocuments['sandbox-connect'](b, doc, p);
      break;
    case 'announce-disconnect':
      sandboxDocuments['announce-disconnect'](b, doc);
      break;
    default: {
      const unknown: never = doc;
      throw new TypeError(
        `unknown VXML document kind: ${JSON.stringify((unknown as { kind?: unknown }).kind)}`,
      );
    }
  }
  return b.toXml({ pretty: opts.pretty ?? false });
}
