/**
 * The resend of a failed submit (issue 29, point 1): a connection reset or a dead instance makes the
 * browser raise error.badfetch, whose default handler ends the call although the turn is idempotent
 * (the gateway answers a resubmitted (callId, turn, event) with the same document). Every document
 * that submits carries a form-level `<catch event="error.badfetch">` that resends the same values
 * after a short pause, at most MAX_RESENDS times, then plays the apology and ends.
 *
 * The values must still be readable from the catch, so a document keeps what it submits in document
 * or form variables (assigned, never declared inside a `<filled>` or handler), and a document with
 * several submit shapes notes which one went out in the document variable `sent` ('' = nothing sent
 * yet: the failed fetch was something else, such as a grammar, and there is nothing to resend).
 * The counter is the document variable `badfetches`. Both are declared by resendVars.
 */
import { ecmaNumber, ecmaString, js } from './ecma-string.js';
import type { PromptPart } from './document-spec.js';
import type { DialectProfile } from './dialects.js';
import { hangUp, speak } from './render-parts.js';
import type { Executable, Form, SubmitOptions, VxmlBuilder } from './vxml-builder.js';

/** Resends of one failed submit before the apology. */
export const MAX_RESENDS = 2;

/** The pause before a resend: a `<break>` in a prompt, which VoiceXML allows anywhere a prompt is. */
const PAUSE: readonly PromptPart[] = [{ type: 'break', time: '1s' }];

/** The error name returned to the caller's root when the resends are spent. */
export const FETCH_FAILED = 'fetch_failed';

/** One submit shape: the value `sent` holds when it went out (undefined: the document's only one). */
export interface Resend {
  sent?: string;
  submit: SubmitOptions;
}

/** How the document ends when the resends are spent: return to the root, or hang up (a top-level document). */
export type GiveUp = { return: true } | { hangUp: DialectProfile['hangupInCatch'] };

function end(e: Executable, giveUp: GiveUp): void {
  if ('hangUp' in giveUp) {
    hangUp(e, giveUp.hangUp);
    return;
  }
  e.var('endOfConversation', js`true`);
  e.var('error', ecmaString(FETCH_FAILED));
  e.return(['endOfConversation', 'error']);
}

/** Declares `badfetches` (and `sent` when the document has several submit shapes) as document variables. */
export function resendVars(b: VxmlBuilder, opts: { sent: boolean }): void {
  b.var('badfetches', js`0`);
  if (opts.sent) b.var('sent', ecmaString(''));
}

/**
 * `<catch event="error.badfetch">` on the form: counts the failure; past MAX_RESENDS (or with
 * nothing sent) the apology plays and the document ends as `giveUp` says; otherwise a pause, then
 * the submit that failed, again, with the same values. Without resends (a submit that must not be
 * repeated), the apology plays and the document ends at once.
 */
export function badFetchCatch(
  form: Form,
  resends: readonly Resend[],
  apology: readonly PromptPart[] | undefined,
  giveUp: GiveUp,
): void {
  const h = form.catch(['error.badfetch']);
  if (resends.length === 0) {
    speak(h, apology);
    end(h, giveUp);
    return;
  }
  h.assign('badfetches', js`badfetches + 1`);
  const shaped = resends.some((r) => r.sent !== undefined);
  const spent = js`badfetches > ${ecmaNumber(MAX_RESENDS)}`;
  const branch = h.if(shaped ? js`${spent} || sent == ${ecmaString('')}` : spent);
  speak(branch, apology);
  end(branch, giveUp);
  resends.forEach((r, i) => {
    if (r.sent !== undefined && i < resends.length - 1) branch.elseif(js`sent == ${ecmaString(r.sent)}`);
    else branch.else();
    speak(branch, PAUSE);
    branch.submit(r.submit);
  });
}
