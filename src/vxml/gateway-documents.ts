/**
 * The gateway's other document kinds (shapes of test/fixtures/vxml-examples/*.vxml):
 * say-and-continue, end, transfer, wait, error and bootstrap. One renderer per kind, by kind name.
 * Any of them can be the first document of the subdialog (a first fetch, or the subdialog's src
 * fetched again mid-call, which the gateway answers with the latest document), so each one's first
 * form declares the subdialog's parameters. Every one that submits resends a failed submit
 * (fetch-retry.ts), so the values it submits are document or form variables.
 */
import { ecmaRef, ecmaString, js } from './ecma-string.js';
import type {
  BootstrapDocument,
  EndDocument,
  ErrorDocument,
  SayDocument,
  TransferDocument,
  WaitDocument,
} from './document-spec.js';
import type { DialectProfile } from './dialects.js';
import { badFetchCatch, resendVars } from './fetch-retry.js';
import { callVars, speak, subdialogVars, submitOptions } from './render-parts.js';
import type { VxmlBuilder } from './vxml-builder.js';
import { isVariableName } from './xml-values.js';

const EVENT_NAMELIST = ['callId', 'turn', 'event'] as const;
const TRANSFER_NAMELIST = ['callId', 'turn', 'event', 'transferResult'] as const;
/** Errors a `<transfer>` raises when the platform cannot place the call; reported as transferResult. */
const TRANSFER_ERRORS = ['error.connection', 'error.unsupported', 'error.noresource'];
const BOOTSTRAP_VARS = ['callId', 'message', 'from', 'to'] as const;
/** The subdialog's parameters: form variables in every document, never also resubmitted as document variables. */
const PARAMS: readonly string[] = BOOTSTRAP_VARS;
const RETURN = { return: true } as const;

function say(b: VxmlBuilder, doc: SayDocument, p: DialectProfile): void {
  callVars(b, doc.vars);
  b.var('event', ecmaString('continue'));
  resendVars(b, { sent: false });
  const form = b.form('say');
  subdialogVars(form, doc.vars);
  const submit = submitOptions(doc.submit, EVENT_NAMELIST, p);
  badFetchCatch(form, [{ submit }], doc.apology, RETURN);
  const block = form.block();
  speak(block, doc.prompt);
  block.submit(submit);
}

function end(b: VxmlBuilder, doc: EndDocument): void {
  const values = { callId: doc.callId, from: doc.from, to: doc.to };
  if (doc.behaviour === 'disconnect') {
    const form = b.form('end');
    subdialogVars(form, values);
    const block = form.block();
    speak(block, doc.prompt);
    block.disconnect();
    return;
  }
  b.var('callId', ecmaString(doc.callId ?? ''));
  const form = b.form('end');
  subdialogVars(form, values);
  const block = form.block();
  speak(block, doc.prompt);
  block.var('endOfConversation', js`true`);
  const extra: string[] = [];
  for (const [name, value] of Object.entries(doc.returnVars ?? {})) {
    if (!isVariableName(name) || name === 'endOfConversation' || name === 'callId' || extra.includes(name))
      continue;
    block.var(name, ecmaString(String(value)));
    extra.push(name);
  }
  block.return(['endOfConversation', 'callId', ...extra]);
}

function transfer(b: VxmlBuilder, doc: TransferDocument, p: DialectProfile): void {
  callVars(b, doc.vars);
  b.var('event', ecmaString('transfer'));
  b.var('transferResult', ecmaString(''));
  resendVars(b, { sent: true });
  const form = b.form('transfer');
  subdialogVars(form, doc.vars);
  const submit = submitOptions(doc.submit, TRANSFER_NAMELIST, p);
  badFetchCatch(form, [{ sent: 'event', submit }], doc.apology, RETURN);
  const t = form.transfer({
    name: 'xfer',
    dest: doc.destination,
    style: p.transferStyle,
    ...(doc.connecttimeout !== undefined ? { connecttimeout: doc.connecttimeout } : {}),
    ...(doc.aai !== undefined ? { aai: doc.aai } : {}),
  });
  speak(t, doc.prompt);
  const filled = t.filled();
  filled.assign('transferResult', ecmaRef('xfer'));
  filled.assign('sent', ecmaString('event'));
  filled.submit(submit);
  // the in-transfer error catch: the error event's name is the transferResult
  const failed = t.catch(TRANSFER_ERRORS);
  failed.assign('transferResult', ecmaRef('_event'));
  failed.assign('sent', ecmaString('event'));
  failed.submit(submit);
}

function wait(b: VxmlBuilder, doc: WaitDocument, p: DialectProfile): void {
  const resubmit = doc.resubmit;
  callVars(b, doc.vars);
  const names: string[] = ['callId', 'turn'];
  if (!resubmit) {
    b.var('event', ecmaString('poll'));
    names.push('event');
  } else {
    for (const [name, value] of Object.entries(resubmit)) {
      if (!isVariableName(name) || names.includes(name)) continue;
      // the subdialog's parameters are the form's variables (below), which hide document ones
      if (!PARAMS.includes(name)) b.var(name, ecmaString(value));
      names.push(name);
    }
  }
  resendVars(b, { sent: false });
  const form = b.form('wait');
  subdialogVars(form, { ...doc.vars, ...pick(resubmit, ['message', 'from', 'to']) });
  const submit = submitOptions(doc.submit, names, p);
  badFetchCatch(form, [{ submit }], doc.apology, RETURN);
  const block = form.block();
  speak(block, doc.prompt);
  block.submit(submit);
}

/** The named entries of `values` that are present. */
function pick(values: Record<string, string> | undefined, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (values?.[k] !== undefined) out[k] = values[k];
  return out;
}

function error(b: VxmlBuilder, doc: ErrorDocument): void {
  const form = b.form('error');
  subdialogVars(form, { callId: doc.callId, from: doc.from, to: doc.to });
  const block = form.block();
  speak(block, doc.prompt);
  block.var('endOfConversation', js`true`);
  block.var('error', ecmaString(doc.error ?? ''));
  block.return(['endOfConversation', 'error']);
}

function bootstrap(b: VxmlBuilder, doc: BootstrapDocument, p: DialectProfile): void {
  resendVars(b, { sent: false });
  const form = b.form('bootstrap');
  for (const name of BOOTSTRAP_VARS) form.var(name);
  const submit = submitOptions(doc.submit, BOOTSTRAP_VARS, p);
  badFetchCatch(form, [{ submit }], doc.apology, RETURN);
  form.block().submit(submit);
}

/** Renderers of the gateway's non-ask kinds. */
export const gatewayDocuments = { say, end, transfer, wait, error, bootstrap };
