/**
 * renderDocument: a VxmlDocument (document-spec.ts) → a VoiceXML 2.1 string that validates against
 * vxml.xsd, in the given dialect. Pure: no I/O; the only state is the builder's fragment cache of
 * inline grammars and handlers (see builder-core.ts) and the prepared documents kept here, neither
 * of which changes the output.
 *
 * Prepared documents: the call's own values (callId, from, turn) are written as gaps (CallValue in
 * builder-core.ts), so the markup depends only on the rest of the document. An app's documents are
 * the same for every call that reaches the same node, so that markup is kept by the rest of the
 * document (its key: the document without the call's values, as JSON, with each intent grammar as the
 * digest of its phrases) and later turns only fill in their values. Rendering an ask document takes
 * ~16 µs; the key and the fill take ~3-4 µs. Sandbox documents and the store-retry document (which
 * repeats the caller's input) are different for every call: they are built each time.
 */
import { askDocument } from './ask-document.js';
import { fillPrepared, preparedChars, prettyXml, type CallValues, type PreparedXml } from './builder-core.js';
import type { FieldGrammar, VxmlDocument } from './document-spec.js';
import { dialectProfile, type DialectName, type DialectProfile } from './dialects.js';
import { gatewayDocuments } from './gateway-documents.js';
import { itemsKey } from './render-parts.js';
import { sandboxDocuments } from './sandbox-documents.js';
import { SizedCache } from './sized-cache.js';
import { VxmlBuilder } from './vxml-builder.js';

export interface RenderOptions {
  /** IVR setting `dialect`; unknown or missing = w3c. */
  dialect?: DialectName;
  /** Indented output for people (whitespace inside prompts changes); the gateway serves compact output. */
  pretty?: boolean;
}

const DEFAULT_LANG = 'en-US';

const PREPARED_MAX_CHARS = 4_000_000;
// a document larger than a sixteenth of the bound is built each time: keeping it would push out many others
const prepared = new SizedCache<PreparedXml>(256, PREPARED_MAX_CHARS, preparedChars, PREPARED_MAX_CHARS / 16);

export function renderDocument(doc: VxmlDocument, opts: RenderOptions = {}): string {
  const p = dialectProfile(opts.dialect);
  const values = callValuesOf(doc);
  if (opts.pretty) return prettyXml(fillPrepared(prepareDocument(doc, p), values));
  const key = keyOf(doc, p);
  if (key === undefined) return fillPrepared(prepareDocument(doc, p), values);
  let markup = prepared.get(key);
  if (markup === undefined) {
    markup = prepareDocument(doc, p);
    prepared.set(key, markup);
  }
  return fillPrepared(markup, values);
}

const NO_CALL_VALUES: CallValues = { callId: '', from: '', turn: '' };

/** The values the document's gaps are filled with. */
function callValuesOf(doc: VxmlDocument): CallValues {
  switch (doc.kind) {
    case 'ask':
    case 'say':
    case 'transfer':
    case 'wait':
      return { callId: doc.vars.callId ?? '', from: doc.vars.from ?? '', turn: String(doc.vars.turn ?? '') };
    case 'end':
      return { callId: doc.callId ?? '', from: '', turn: '' };
    default:
      return NO_CALL_VALUES;
  }
}

/** An intent grammar by the digest of its phrases (memoised per array), other grammars as they are. */
const grammarKey = (g: FieldGrammar): unknown => (g.kind === 'srgs' ? { ...g, items: itemsKey(g.items) } : g);

/**
 * What the markup of `doc` depends on: everything but the call's values, in the dialect. Undefined
 * for the documents that are different for every call (not worth keeping). The key is the document's
 * JSON, so it is exact for the values the document types allow (strings, finite numbers, booleans);
 * a value JSON cannot tell apart (NaN, undefined in an array) is outside those types.
 */
function keyOf(doc: VxmlDocument, p: DialectProfile): string | undefined {
  switch (doc.kind) {
    case 'ask':
      return JSON.stringify([p.name, { ...doc, vars: undefined, grammars: (doc.grammars ?? []).map(grammarKey) }]);
    case 'say':
    case 'transfer':
      return JSON.stringify([p.name, { ...doc, vars: undefined }]);
    case 'wait':
      return doc.resubmit ? undefined : JSON.stringify([p.name, { ...doc, vars: undefined }]);
    case 'end':
      // returned values are written as String(value): the key holds them so (JSON would drop undefined)
      return JSON.stringify([p.name, { ...doc, callId: undefined, returnVars: doc.returnVars && Object.entries(doc.returnVars).map(([k, v]) => [k, String(v)]) }]);
    case 'error':
    case 'bootstrap':
      return JSON.stringify([p.name, doc]);
    default:
      return undefined;
  }
}

/** Builds the document's markup with gaps for the call's values. */
export function prepareDocument(doc: VxmlDocument, p: DialectProfile): PreparedXml {
  const b = VxmlBuilder.document(doc.kind === 'bootstrap' ? undefined : (doc.lang ?? DEFAULT_LANG));
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
      throw new TypeError(`unknown VXML document kind: ${JSON.stringify((unknown as { kind?: unknown }).kind)}`);
    }
  }
  return b.prepare();
}

/** Prepared documents kept and their size in characters (for tests and diagnostics). */
export function preparedDocumentStats(): { entries: number; chars: number } {
  return prepared.stats();
}
