/**
 * The ask document (shape of test/fixtures/vxml-examples/ask-intent.vxml): merged prompt, a field
 * named by the data extraction key with its grammars and properties, no-input/no-match counted
 * together (document variable `failures`) with event=maxretries past `retries`, a `<filled>` that
 * submits the utterance and ASR values, and optionally the document-level hangup catch.
 */
import { ecmaRef, ecmaString, js } from './ecma-string.js';
import type { AskDocument } from './document-spec.js';
import type { DialectProfile } from './dialects.js';
import { fieldNameFromKey } from './field-name.js';
import { callVars, eventCatch, fieldGrammars, properties, retryCatch, speak, submitOptions } from './render-parts.js';
import type { VxmlBuilder } from './vxml-builder.js';

const EVENT_NAMELIST = ['callId', 'turn', 'event'] as const;
const FILLED_NAMELIST = ['callId', 'from', 'turn', 'message', 'interpretation', 'confidence', 'inputmode'] as const;

export function askDocument(b: VxmlBuilder, doc: AskDocument, p: DialectProfile): void {
  const field = fieldNameFromKey(doc.fieldName);
  const eventSubmit = submitOptions(doc.submit, EVENT_NAMELIST, p);

  callVars(b, doc.vars, { from: true });
  b.var('failures', js`0`);
  properties(b, { ...p.documentProperties, ...doc.documentProperties });
  if (doc.hangupCatch) eventCatch(b, ['connection.disconnect.hangup'], 'hangup', eventSubmit);

  const form = b.form('ask');
  if (doc.subdialogEntry) {
    form.var('callId', ecmaString(doc.vars.callId ?? ''));
    form.var('message', ecmaString(''));
    form.var('from', ecmaString(doc.vars.from ?? ''));
    form.var('to', ecmaString(''));
  }
  const f = form.field(field);
  properties(f, doc.fieldProperties);
  speak(f, doc.prompt);
  fieldGrammars(f, doc.grammars ?? [], p, doc.grammarBase);
  retryCatch(f, {
    retries: doc.retries,
    noInput: doc.noInputPrompt,
    noMatch: doc.noMatchPrompt,
    exceeded: { event: 'maxretries', submit: eventSubmit },
  });
  const filled = f.filled();
  const shadow = `${field}$`;
  filled.var('message', ecmaRef(shadow, 'utterance'));
  filled.var('interpretation', ecmaRef(field));
  filled.var('confidence', ecmaRef(shadow, 'confidence'));
  filled.var('inputmode', ecmaRef(shadow, 'inputmode'));
  filled.submit(submitOptions(doc.submit, FILLED_NAMELIST, p));
}
