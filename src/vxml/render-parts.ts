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
import { appendSrgsItems } from './srgs-grammar.js';
import { entityGrammarUrl } from './entity-grammar-document.js';
import type { Executable, Field, Form, SubmitOptions, VxmlBuilder } from './vxml-builder.js';

/** Declares callId, (from,) turn as document variables; turn is a string literal (quirk 6). */
export function callVars(b: VxmlBuilder, v: CallVars, opts: { from?: boolean; turn?: boolean } = {}): void {
  b.var('callId', ecmaString(v.callId ?? ''));
  if (opts.from) b.var('from', ecmaString(v.from ?? ''));
  if (opts.turn !== false) b.var('turn', ecmaString(String(v.turn ?? '')));
}

export function properties(target: VxmlBuilder | Field, props: Readonly<Record<string, string>> | undefined): void {
  if (props) target.properties(props);
}

/** The submit as the dialect writes it (fetchaudio kept or dropped, default fetchtimeout). */
export function submitOptions(t: SubmitTarget, namelist: readonly string[], p: DialectProfile): SubmitOptions {
  const fetchtimeout = t.fetchtimeout ?? p.submitFetchtimeout;
  return {
    next: t.url,
    method: t.method ?? 'post',
    namelist,
    ...(p.fetchaudio === 'keep' && t.fetchaudio !== undefined ? { fetchaudio: t.fetchaudio } : {}),
    ...(fetchtimeout !== undefined ? { fetchtimeout } : {}),
  };
}

export function submitTo(e: Executable, t: SubmitTarget, namelist: readonly string[], p: DialectProfile): void {
  e.submit(submitOptions(t, namelist, p));
}

/** A `<prompt>` with the parts, unless there are none. */
export function speak(e: { prompt(): SsmlContainer }, parts: readonly PromptPart[] | undefined): void {
  if (parts && parts.length > 0) promptSsml(e.prompt(), parts);
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
 * and the field is reprompted.
 */
export function retryCatch(
  host: Field | Form,
  d: { retries: number; noInput?: readonly PromptPart[] | undefined; noMatch?: readonly PromptPart[] | undefined; exceeded: Exceeded },
): void {
  const h = host.catch(['noinput', 'nomatch']);
  h.assign('failures', js`failures + 1`);
  const branch = h.if(js`failures > ${ecmaNumber(clampRetries(d.retries))}`);
  if ('submit' in d.exceeded) {
    branch.var('event', ecmaString(d.exceeded.event));
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

/** `<catch event="…">` that submits `event=<event>` (e.g. the hangup catch). */
export function eventCatch(host: VxmlBuilder | Field | Form, events: readonly string[], event: string, submit: SubmitOptions): void {
  const h = host.catch(events);
  h.var('event', ecmaString(event));
  h.submit(submit);
}

const INLINE: Partial<Record<BuiltinType, 'number' | 'date' | 'digits' | 'boolean'>> = {
  number: 'number',
  date: 'date',
  digits: 'digits',
  boolean: 'boolean',
};

/**
 * A builtin the dialect does not list becomes the equivalent inline grammar (so `w3c` never asks a
 * browser for builtin:grammar/number). Types with no inline equivalent are kept as written.
 */
function applyDialect(g: FieldGrammar, p: DialectProfile): FieldGrammar {
  if (g.kind !== 'builtin') return g;
  const m = /^builtin:(dtmf|grammar|voice)\/([a-z]+)(?:\?(.*))?$/i.exec(g.src.trim());
  if (!m) return g;
  const type = m[2]!.toLowerCase() as BuiltinType;
  const entity = INLINE[type];
  if (!entity || p.builtins[g.mode].includes(type)) return g;
  const params = new Map((m[3] ?? '').split(';').map((kv) => kv.split('=') as [string, string]));
  const num = (k: string) => (/^\d+$/.test(params.get(k) ?? '') ? Number(params.get(k)) : undefined);
  const inline: FieldGrammar = { kind: 'inline-entity', mode: g.mode, entity };
  const min = num('length') ?? num('minlength');
  const max = num('length') ?? num('maxlength');
  if (entity === 'digits' && min !== undefined) inline.minLength = min;
  if (entity === 'digits' && max !== undefined) inline.maxLength = max;
  return inline;
}

/**
 * The field's `<grammar>` elements. With `grammarBase` (where the gateway serves its grammars), the
 * gateway's own entity grammars are named by URL there instead of written inline.
 */
export function fieldGrammars(f: Field, grammars: readonly FieldGrammar[], p: DialectProfile, grammarBase?: string): void {
  for (const given of grammars) {
    const g = applyDialect(given, p);
    switch (g.kind) {
      case 'builtin':
      case 'uri':
        f.grammar(g.src, g.mode);
        break;
      case 'transcription':
        f.grammar(g.src);
        break;
      case 'srgs': {
        const attrs = { mode: g.mode, root: g.root || 'intents', ...(g.lang !== undefined ? { lang: g.lang } : {}) };
        f.inlineGrammar(attrs, (gr, root) => appendSrgsItems(gr.rule(root, 'public'), g.items));
        break;
      }
      case 'inline-entity': {
        if (grammarBase !== undefined) {
          f.grammar(entityGrammarUrl(grammarBase, g), g.mode);
          break;
        }
        const root = `${g.entity}${g.mode === 'dtmf' ? 'D' : 'V'}`;
        const attrs = { mode: g.mode, root, family: true, ...(g.lang !== undefined ? { lang: g.lang } : {}) };
        const spec = { entity: g.entity, mode: g.mode, ...(g.minLength !== undefined ? { minLength: g.minLength } : {}), ...(g.maxLength !== undefined ? { maxLength: g.maxLength } : {}) };
        f.inlineGrammar(attrs, (gr, r) => entitySrgs(gr, r, spec));
        break;
      }
    }
  }
}
