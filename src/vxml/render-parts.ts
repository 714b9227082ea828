/**
 * Pieces shared by the document renderers: call variables, properties, submits, prompts, the field's
 * grammars (with the dialect's builtin policy applied) and the retry handler that counts no-input and
 * no-match together.
 */
import { ecmaNumber, ecmaString, js } from './ecma-string.js';
import type { CallVars, FieldGrammar, PromptPart, SubmitTarget } from './document-spec.js';
import type { BuiltinType, DialectProfile } from './dialects.js';
import { entitySrgs } from './entity-srgs.js';
import { promptSsml } from './prompt-ssml.js';
import type { SsmlContainer } from './ssml-builder.js';
import { writeSrgsItems } from './srgs-grammar.js';
import { entityGrammarUrl } from './entity-grammar-document.js';
import type { Executable, Field, Form, Recording, SubmitOptions, VxmlBuilder } from './vxml-builder.js';

/** Declares callId, (from,) turn as document variables; turn is a string literal (quirk 6). */
export function callVars(b: VxmlBuilder, v: CallVars, opts: { from?: boolean; turn?: boolean } = {}): void {
  b.var('callId', ecmaString(v.callId ?? ''));
  if (opts.from) b.var('from', ecmaString(v.from ?? ''));
  if (opts.turn !== false) b.var('turn', ecmaString(String(v.turn ?? '')));
}

export function properties(
  target: VxmlBuilder | Field | Recording,
  props: Readonly<Record<string, string>> | undefined,
): void {
  if (props) target.properties(props);
}

/** The submit as the dialect writes it (fetchaudio kept or dropped, default fetchtimeout). */
export function submitOptions(
  t: SubmitTarget,
  namelist: readonly string[],
  p: DialectProfile,
): SubmitOptions {
  const fetchtimeout = t.fetchtimeout ?? p.submitFetchtimeout;
  return {
    next: t.url,
    method: t.method ?? 'post',
    namelist,
    ...(p.fetchaudio === 'keep' && t.fetchaudio !== undefined ? { fetchaudio: t.fetchaudio } : {}),
    ...(fetchtimeout !== undefined ? { fetchtimeout } : {}),
  };
}

export function submitTo(
  e: Executable,
  t: SubmitTarget,
  namelist: readonly string[],
  p: DialectProfile,
): void {
  e.submit(submitOptions(t, namelist, p));
}

/** A `<prompt>` with the parts, unless there are none. */
export function speak(e: { prompt(): SsmlContainer }, parts: readonly PromptPart[] | undefined): void {
  // in the document's voice (IVR settings `languages.voices`, else the dialect's default), if any
  if (parts && parts.length > 0) promptSsml(e.prompt().spoken(), parts);
}

/** Ends the call from inside a handler, as the dialect needs (quirk 14). */
export function hangUp(e: Executable, style: DialectProfile['hangupInCatch']): void {
  if (style === 'exit') e.exit();
  else e.disconnect();
}

export function clampRetries(n: number | undefined, fallback = 3): number {
  const v = typeof n === 'number' && Number.isFinite(n) ? Math.floor(n) : fallback;
  return Math.min(10, Math.max(1, v));
}

/** What happens past the allowed retries: submit `event=<event>`, or say goodbye and hang up. */
export type Exceeded =
  | { submit: SubmitOptions; event: string }
  | { goodbye: readonly PromptPart[] | undefined; hangUp: DialectProfile['hangupInCatch'] };

/**
 * `<catch event="noinput nomatch">` keeping the document's own counter `failures` (declared by the
 * caller as a document variable): VoiceXML counts each event separately (quirk 8), callers experience
 * failures together. Past `retries` failures `exceeded` happens; otherwise the matching prompt plays
 * and the field is reprompted. A submitting `exceeded` assigns the document variables `event` and
 * `sent` (see fetch-retry.ts), which the caller declares.
 */
export function retryCatch(
  host: Field | Form | Recording,
  d: {
    retries: number;
    noInput?: readonly PromptPart[] | undefined;
    noMatch?: readonly PromptPart[] | undefined;
    exceeded: Exceeded;
  },
): void {
  const h = host.catch(['noinput', 'nomatch']);
  h.assign('failures', js`failures + 1`);
  const branch = h.if(js`failures > ${ecmaNumber(clampRetries(d.retries))}`);
  if ('submit' in d.exceeded) {
    branch.assign('event', ecmaString(d.exceeded.event));
    branch.assign('sent', ecmaString('event'));
    branch.submit(d.exceeded.submit);
  } else {
    speak(branch, d.exceeded.goodbye);
    hangUp(branch, d.exceeded.hangUp);
  }
  branch.elseif(js`_event == 'noinput'`);
  speak(branch, d.noInput);
  branch.reprompt();
  branch.else();
  speak(branch, d.noMatch);
  branch.reprompt();
}

/**
 * `<catch event="…">` that submits `event=<event>` (e.g. the hangup catch); it assigns the document
 * variables `event` and `sent`, which the caller declares.
 */
export function eventCatch(
  host: VxmlBuilder | Field | Form,
  events: readonly string[],
  event: string,
  submit: SubmitOptions,
): void {
  const h = host.catch(events);
  h.assign('event', ecmaString(event));
  h.assign('sent', ecmaString('event'));
  h.submit(submit);
}

/** The values a subdialog's `<param>`s bring: callId, message, from and to. */
export interface SubdialogValues {
  callId?: string | undefined;
  message?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * Declares the subdialog's parameters (callId, message, from, to) as variables of the document's
 * first form, with the document's own values: when the document is the first of a subdialog (its
 * src fetched, perhaps again mid-call), the `<param>`s land in them; a strict browser raises
 * error.semantic for a param without its `<var>`.
 */
export function subdialogVars(form: Form, v: SubdialogValues): void {
  form.var('callId', ecmaString(v.callId ?? ''));
  form.var('message', ecmaString(v.message ?? ''));
  form.var('from', ecmaString(v.from ?? ''));
  form.var('to', ecmaString(v.to ?? ''));
}

const INLINE: Partial<Record<BuiltinType, 'number' | 'date' | 'digits' | 'boolean'>> = {
  number: 'number',
  date: 'date',
  digits: 'digits',
  boolean: 'boolean',
};

/**
 * The grammar as the dialect can use it, or undefined when it cannot: a builtin the dialect does not
 * list becomes the equivalent inline grammar (so `w3c` never asks a browser for
 * builtin:grammar/number); a builtin with no inline equivalent that the dialect does not list, and a
 * transcription grammar where the dialect has none, are left out (a browser raises error.badfetch
 * for the whole field on a grammar it lacks, quirk 7).
 */
function applyDialect(g: FieldGrammar, p: DialectProfile): FieldGrammar | undefined {
  if (g.kind === 'transcription') return p.transcription === null ? undefined : g;
  if (g.kind !== 'builtin') return g;
  const m = /^builtin:(dtmf|grammar|voice|speech)\/([a-z]+)(?:\?(.*))?$/i.exec(g.src.trim());
  if (!m) return undefined;
  // builtin:speech/… (and builtin:…/transcribe) is the transcription engine, not an Appendix P type
  if (m[1]!.toLowerCase() === 'speech' || m[2]!.toLowerCase() === 'transcribe')
    return p.transcription === null ? undefined : g;
  const type = m[2]!.toLowerCase() as BuiltinType;
  if (p.builtins[g.mode].includes(type)) return g;
  const entity = INLINE[type];
  if (!entity) return undefined;
  const params = new Map((m[3] ?? '').split(';').map((kv) => kv.split('=') as [string, string]));
  const num = (k: string) => (/^\d+$/.test(params.get(k) ?? '') ? Number(params.get(k)) : undefined);
  const inline: FieldGrammar = { kind: 'inline-entity', mode: g.mode, entity };
  const min = num('length') ?? num('minlength');
  const max = num('length') ?? num('maxlength');
  if (entity === 'digits' && min !== undefined) inline.minLength = min;
  if (entity === 'digits' && max !== undefined) inline.maxLength = max;
  return inline;
}

/** The grammars the dialect can use, in order (see applyDialect); empty when none is left. */
export function usableGrammars(grammars: readonly FieldGrammar[], p: DialectProfile): FieldGrammar[] {
  const out: FieldGrammar[] = [];
  for (const given of grammars) {
    const g = applyDialect(given, p);
    if (g) out.push(g);
  }
  return out;
}

/**
 * The field's `<grammar>` elements: those the dialect can use (usableGrammars). With `grammarBase`
 * (where the gateway serves its grammars), the gateway's own entity grammars are named by URL there
 * instead of written inline.
 */
export function fieldGrammars(
  f: Field,
  grammars: readonly FieldGrammar[],
  p: DialectProfile,
  grammarBase?: string,
): void {
  for (const g of usableGrammars(grammars, p)) {
    switch (g.kind) {
      case 'builtin':
      case 'uri':
        f.grammar(g.src, g.mode);
        break;
      case 'transcription':
        f.grammar(g.src);
        break;
      case 'srgs': {
        const attrs = {
          mode: g.mode,
          root: g.root || 'intents',
          ...(g.lang !== undefined ? { lang: g.lang } : {}),
        };
        f.inlineGrammar(attrs, (gr, root) => writeSrgsItems(gr.rule(root, 'public'), g));
        break;
      }
      case 'inline-entity': {
        if (grammarBase !== undefined) {
          f.grammar(entityGrammarUrl(grammarBase, g), g.mode);
          break;
        }
        const root = `${g.entity}${g.mode === 'dtmf' ? 'D' : 'V'}`;
        const attrs = { mode: g.mode, root, family: true, ...(g.lang !== undefined ? { lang: g.lang } : {}) };
        const spec = {
          entity: g.entity,
          mode: g.mode,
          ...(g.minLength !== undefined ? { minLength: g.minLength } : {}),
          ...(g.maxLength !== undefined ? { maxLength: g.maxLength } : {}),
        };
        f.inlineGrammar(attrs, (gr, r) => entitySrgs(gr, r, spec));
        break;
      }
    }
  }
}
