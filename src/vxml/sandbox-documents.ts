/**
 * Test sandbox documents: the login (PIN then secret by DTMF), the connection that runs the app's
 * webhook as a `<subdialog>` (and reports a hang-up that reaches it to the webhook, for browsers
 * that deliver it to the top-level document only), and a prompt-then-hang-up announcement ("all
 * lines are busy"). These are top-level documents of the sandbox number, not subdialogs.
 */
import { ecmaString, js } from './ecma-string.js';
import type {
  AnnounceDisconnectDocument,
  DigitLength,
  SandboxConnectDocument,
  SandboxLoginDocument,
} from './document-spec.js';
import type { DialectProfile } from './dialects.js';
import { entityGrammars } from './builtin-grammars.js';
import { badFetchCatch } from './fetch-retry.js';
import { fieldGrammars, hangUp, properties, retryCatch, speak, submitTo } from './render-parts.js';
import type { Form, VxmlBuilder } from './vxml-builder.js';

function digitsField(
  form: Form,
  name: string,
  prompt: SandboxLoginDocument['pinPrompt'],
  len: DigitLength,
  doc: SandboxLoginDocument,
  p: DialectProfile,
): void {
  const f = form.field(name);
  properties(f, doc.properties);
  speak(f, prompt);
  const min = Math.max(1, Math.floor(Math.min(len.min, len.max)));
  const max = Math.max(min, Math.floor(Math.max(len.min, len.max)));
  const dtmf = entityGrammars(
    { kind: 'entity', entityType: 'digits', minLength: min, maxLength: max },
    p,
  ).filter((g) => 'mode' in g && g.mode === 'dtmf');
  fieldGrammars(f, dtmf, p);
}

function login(b: VxmlBuilder, doc: SandboxLoginDocument, p: DialectProfile): void {
  b.var('attempt', ecmaString(doc.attemptId ?? ''));
  b.var('failures', js`0`);
  const form = b.form('login');
  if (doc.errorPrompt && doc.errorPrompt.length > 0) speak(form.block(), doc.errorPrompt);
  digitsField(form, 'pin', doc.pinPrompt, doc.pinLength, doc, p);
  digitsField(form, 'secret', doc.secretPrompt, doc.secretLength, doc, p);
  badFetchCatch(form, [], doc.apology, { hangUp: p.hangupInCatch });
  retryCatch(form, {
    retries: doc.retries ?? 3,
    noInput: doc.noInputPrompt,
    noMatch: doc.noMatchPrompt,
    exceeded: { goodbye: doc.goodbyePrompt, hangUp: p.hangupInCatch },
  });
  submitTo(
    form.filled({ mode: 'all', namelist: ['pin', 'secret'] }),
    doc.submit,
    ['attempt', 'pin', 'secret'],
    p,
  );
}

function connect(b: VxmlBuilder, doc: SandboxConnectDocument, p: DialectProfile): void {
  b.var('callId', ecmaString(doc.callId ?? ''));
  b.var('returned', js`false`);
  const failed = b.catch(['error.badfetch']);
  speak(failed, doc.errorPrompt);
  hangUp(failed, p.hangupInCatch);
  // a browser that delivers the hang-up to this top-level document only: report it to the webhook
  // (not the line going down after the agent returned: that call is over)
  const hungUp = b.catch(['connection.disconnect.hangup'], undefined, js`returned == false`);
  hungUp.var('event', ecmaString('hangup'));
  hungUp.data({ src: doc.webhookUrl, method: 'post', namelist: ['callId', 'event'] });
  hungUp.exit();
  const bot = b.form('connect').subdialog('bot', doc.webhookUrl);
  bot.param('callId', ecmaString(doc.callId ?? ''));
  bot.param('message', ecmaString(''));
  bot.param('from', ecmaString(doc.from ?? ''));
  bot.param('to', ecmaString(doc.to ?? ''));
  const done = bot.filled();
  done.assign('returned', js`true`);
  speak(done, doc.goodbyePrompt);
  done.disconnect();
}

function announce(b: VxmlBuilder, doc: AnnounceDisconnectDocument): void {
  const block = b.form('announce').block();
  speak(block, doc.prompt);
  block.disconnect();
}

/** Renderers of the sandbox kinds, by kind name. */
export const sandboxDocuments = {
  'sandbox-login': login,
  'sandbox-connect': connect,
  'announce-disconnect': announce,
};
