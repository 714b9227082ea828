/**
 * The ask document (shape of test/fixtures/vxml-examples/ask-intent.vxml): merged prompt, a field
 * named by the data extraction key with its grammars and properties, no-input/no-match counted
 * together (document variable `failures`) with event=maxretries past `retries`, a `<filled>` that
 * submits the utterance and ASR values, and optionally the document-level hangup catch. The first
 * form declares the subdialog's parameters; a failed submit is resent (fetch-retry.ts), so what a
 * submit sends lives in document and form variables. Without a grammar the dialect can use, the
 * caller is recorded instead (`<record>`, see AskDocument).
 */
import { ecmaRef, ecmaString, js } from './ecma-string.js';
import type { AskDocument } from './document-spec.js';
import type { DialectProfile } from './dialects.js';
import { fieldNameFromKey } from './field-name.js';
import { badFetchCatch, resendVars } from './fetch-retry.js';
import {
  callVars,
  eventCatch,
  fieldGrammars,
  properties,
  retryCatch,
  speak,
  subdialogVars,
  submitOptions,
  usableGrammars,
} from './render-parts.js';
import type { Executable, Form, VxmlBuilder } from './vxml-builder.js';

const EVENT_NAMELIST = ['callId', 'turn', 'event'] as const;
const FILLED_NAMELIST = [
  'callId',
  'from',
  'turn',
  'message',
  'interpretation',
  'confidence',
  'inputmode',
] as const;
const RECORD_NAMELIST = ['callId', 'from', 'turn', 'event', 'recording'] as const;

/** The `<record>` used when no grammar can collect the answer. */
const RECORDING = { beep: true, maxtime: '60s', finalsilence: '3s' } as const;

export function askDocument(b: VxmlBuilder, doc: AskDocument, p: DialectProfile): void {
  const field = fieldNameFromKey(doc.fieldName);
  const eventSubmit = submitOptions(doc.submit, EVENT_NAMELIST, p);
  const grammars = usableGrammars(doc.grammars ?? [], p);
  const recorded = grammars.length === 0;

  callVars(b, doc.vars, { from: true });
  b.var('failures', js`0`);
  b.var('event', ecmaString(''));
  if (recorded) b.var('recording', js`0`);
  else for (const name of ['interpretation', 'confidence', 'inputmode']) b.var(name, ecmaString(''));
  resendVars(b, { sent: true });
  properties(b, { ...p.documentProperties, ...doc.documentProperties });
  if (doc.hangupCatch) eventCatch(b, ['connection.disconnect.hangup'], 'hangup', eventSubmit);

  const form = b.form('ask');
  subdialogVars(form, { callId: doc.vars.callId, from: doc.vars.from, to: doc.vars.to });
  const inputSubmit = recorded
    ? { sent: 'record', submit: submitOptions(doc.submit, RECORD_NAMELIST, p) }
    : { sent: 'input', submit: submitOptions(doc.submit, FILLED_NAMELIST, p) };
  badFetchCatch(form, [{ sent: 'event', submit: eventSubmit }, inputSubmit], doc.apology, { return: true });
  const retry = {
    retries: doc.retries,
    noInput: doc.noInputPrompt,
    noMatch: doc.noMatchPrompt,
    exceeded: { event: 'maxretries', submit: eventSubmit },
  };
  if (recorded) {
    recordItem(form, field, doc, retry, inputSubmit.submit);
    return;
  }
  const f = form.field(field);
  properties(f, doc.fieldProperties);
  speak(f, doc.prompt);
  fieldGrammars(f, grammars, p, doc.grammarBase);
  retryCatch(f, retry);
  const filled = f.filled();
  const shadow = `${field}$`;
  filled.assign('message', ecmaRef(shadow, 'utterance'));
  filled.assign('interpretation', ecmaRef(field));
  filled.assign('confidence', ecmaRef(shadow, 'confidence'));
  filled.assign('inputmode', ecmaRef(shadow, 'inputmode'));
  sendAs(filled, 'input').submit(inputSubmit.submit);
}

/** The `<record>` in place of the field: its duration is submitted with event=recording. */
function recordItem(
  form: Form,
  name: string,
  doc: AskDocument,
  retry: Parameters<typeof retryCatch>[1],
  submit: ReturnType<typeof submitOptions>,
): void {
  const r = form.record({ name, ...RECORDING });
  properties(r, doc.fieldProperties);
  speak(r, doc.prompt);
  retryCatch(r, retry);
  const filled = r.filled();
  filled.assign('recording', ecmaRef(`${name}$`, 'duration'));
  filled.assign('event', ecmaString('recording'));
  sendAs(filled, 'record').submit(submit);
}

function sendAs(e: Executable, shape: string): Executable {
  return e.assign('sent', ecmaString(shape));
}
