/**
 * The gateway's other document kinds (shapes of test/fixtures/vxml-examples/*.vxml):
 * say-and-continue, end, transfer, wait, error and bootstrap. One renderer per kind, by kind name.
 */
import { ecmaRef, ecmaString, js } from './ecma-string.js';
import type { BootstrapDocument, EndDocument, ErrorDocument, SayDocument, TransferDocument, WaitDocument } from './document-spec.js';
import type { DialectProfile } from './dialects.js';
import { callVars, speak, submitTo } from './render-parts.js';
import type { VxmlBuilder } from './vxml-builder.js';
import { isVariableName } from './xml-values.js';

const EVENT_NAMELIST = ['callId', 'turn', 'event'] as const;
const TRANSFER_NAMELIST = ['callId', 'turn', 'event', 'transferResult'] as const;
/** Errors a `<transfer>` raises when the platform cannot place the call; reported as transferResult. */
const TRANSFER_ERRORS = ['error.connection', 'error.unsupported', 'error.noresource'];
const BOOTSTRAP_VARS = ['callId', 'message', 'from', 'to'] as const;

function say(b: VxmlBuilder, doc: SayDocument, p: DialectProfile): void {
  callVars(b, doc.vars);
  const block = b.form('say').block();
  speak(block, doc.prompt);
  block.var('event', ecmaString('continue'));
  submitTo(block, doc.submit, EVENT_NAMELIST, p);
}

function end(b: VxmlBuilder, doc: EndDocument): void {
  if (doc.behaviour === 'disconnect') {
    const block = b.form('end').block();
    speak(block, doc.prompt);
    block.disconnect();
    return;
  }
  b.var('callId', ecmaString(doc.callId ?? ''));
  const block = b.form('end').block();
  speak(block, doc.prompt);
  block.var('endOfConversation', js`true`);
  const extra: string[] = [];
  for (const [name, value] of Object.entries(doc.returnVars ?? {})) {
    if (!isVariableName(name) || name === 'endOfConversation' || name === 'callId' || extra.includes(name)) continue;
    block.var(name, ecmaString(String(value)));
    extra.push(name);
  }
  block.return(['endOfConversation', 'callId', ...extra]);
}

function transfer(b: VxmlBuilder, doc: TransferDocument, p: DialectProfile): void {
  callVars(b, doc.vars);
  b.var('event', ecmaString('transfer'));
  const t = b.form('transfer').transfer({
    name: 'xfer',
    dest: doc.destination,
    style: p.transferStyle,
    ...(doc.connecttimeout !== undefined ? { connecttimeout: doc.connecttimeout } : {}),
    ...(doc.aai !== undefined ? { aai: doc.aai } : {}),
  });
  speak(t, doc.prompt);
  const filled = t.filled();
  filled.var('transferResult', ecmaRef('xfer'));
  submitTo(filled, doc.submit, TRANSFER_NAMELIST, p);
  // the in-transfer error catch: the error event's name is the transferResult
  const failed = t.catch(TRANSFER_ERRORS);
  failed.var('transferResult', ecmaRef('_event'));
  submitTo(failed, doc.submit, TRANSFER_NAMELIST, p);
}

function wait(b: VxmlBuilder, doc: WaitDocument, p: DialectProfile): void {
  const resubmit = doc.resubmit;
  callVars(b, doc.vars, { from: resubmit?.from !== undefined });
  const block = b.form('wait').block();
  speak(block, doc.prompt);
  if (!resubmit) {
    block.var('event', ecmaString('poll'));
    submitTo(block, doc.submit, EVENT_NAMELIST, p);
    return;
  }
  const names: string[] = ['callId', 'turn'];
  if (resubmit.from !== undefined) names.push('from');
  for (const [name, value] of Object.entries(resubmit)) {
    if (!isVariableName(name) || names.includes(name)) continue;
    block.var(name, ecmaString(value));
    names.push(name);
  }
  submitTo(block, doc.submit, names, p);
}

function error(b: VxmlBuilder, doc: ErrorDocument): void {
  const block = b.form('error').block();
  speak(block, doc.prompt);
  block.var('endOfConversation', js`true`);
  block.var('error', ecmaString(doc.error ?? ''));
  block.return(['endOfConversation', 'error']);
}

function bootstrap(b: VxmlBuilder, doc: BootstrapDocument, p: DialectProfile): void {
  const form = b.form('bootstrap');
  for (const name of BOOTSTRAP_VARS) form.var(name);
  submitTo(form.block(), doc.submit, BOOTSTRAP_VARS, p);
}

/** Renderers of the gateway's non-ask kinds. */
export const gatewayDocuments = { say, end, transfer, wait, error, bootstrap };
