/**
 * Pure mapping from a turn's stored answer and the app's IVR settings to the VoiceXML document
 * spec the renderer takes. The app's settings are the defaults; the asking node's overrides win.
 * The agent's prompt and await types become the renderer's own here (and nowhere else).
 */
import type {
  AwaitSpec as AgentAwait,
  CompiledAgent,
  GrammarSpec,
  PromptPart as AgentPromptPart,
} from '../agent/index.js';
import {
  entityGrammars,
  fieldNameFromKey,
  withTranscription,
  type AwaitSpec,
  type DialectName,
  type FieldGrammar,
  type PromptPart,
  type VxmlDocument,
} from '../vxml/index.js';
import type { AnswerSpec } from './call-session.js';
import { wellFormed } from '../platform/index.js';
import type { IvrSettings } from '../ivr-settings/index.js';
import { voiceFor } from './ivr-languages.js';

export interface DocumentContext {
  settings: IvrSettings;
  agent: CompiledAgent;
  callId: string;
  from?: string;
  /** The callee (the subdialog's `to` param), when the call brought one. */
  to?: string;
  /** The turn number this document issues (the browser submits it back). */
  turn: number;
  /** The webhook URL with its token, where the document submits. */
  submitUrl: string;
  lang: string;
}

/** A value inside aai (`name=value;…`): percent-encoded, lone surrogates replaced first. */
const aaiValue = (v: string): string => encodeURIComponent(wellFormed(v));

export const textPrompt = (text: string | undefined): PromptPart[] => (text ? [{ type: 'text', text }] : []);

/** The call's variables in a document that issues `ctx.turn`. */
const callVars = (ctx: Omit<DocumentContext, 'agent'>) => ({
  callId: ctx.callId,
  from: ctx.from ?? '',
  to: ctx.to ?? '',
  turn: String(ctx.turn),
});

/**
 * The agent's prompt as the renderer's. The two types are declared apart but have the same shape,
 * so the parts pass unchanged (no copy per turn); the signatures make the compiler check that they
 * still match, and a change to either makes this the place where the conversion goes.
 */
const renderedPrompt = (parts: AgentPromptPart[]): PromptPart[] => parts;
const renderedAwait = (spec: AgentAwait): AwaitSpec => spec;

const str = (v: unknown): string => (typeof v === 'boolean' ? String(v) : String(v));

export function documentProperties(settings: IvrSettings): Record<string, string> {
  const props: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings.vxmlProperties))
    if (value !== undefined) props[name] = str(value);
  for (const p of settings.callControlParameters) props[p.name] = p.value;
  return props;
}

function fieldProperties(answer: AnswerSpec): Record<string, string> {
  const o = answer.overrides;
  const props: Record<string, string> = {};
  if (!o) return props;
  if (o.timeout) props.timeout = o.timeout;
  if (o.bargein !== undefined) props.bargein = String(o.bargein);
  for (const [k, v] of Object.entries(o.properties ?? {})) props[k] = v;
  return props;
}

function nodeGrammars(specs: GrammarSpec[]): FieldGrammar[] {
  return specs
    .filter((g): g is GrammarSpec & { src: string } => typeof g.src === 'string')
    .map((g) =>
      g.src.startsWith('builtin:')
        ? { kind: 'builtin', mode: g.mode, src: g.src }
        : { kind: 'uri', mode: g.mode, src: g.src },
    );
}

/**
 * The intents' SRGS grammar in the call's language, prepared with the compiled agent: that
 * language's, or in any other the default language's with `xml:lang` the app's language.
 */
function intentGrammar(ctx: DocumentContext, callLang: string): FieldGrammar {
  const { agent } = ctx;
  const own = callLang !== agent.languages[0] ? agent.intentGrammars.get(callLang) : undefined;
  return own ?? { ...agent.intentGrammars.get(agent.languages[0]!)!, lang: ctx.lang };
}

/** The names a caller may say to choose a language (each in its own language and in English). */
const LANGUAGE_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['english', 'inglés'],
  es: ['español', 'spanish'],
};

/** The grammars that choose a language at an intent question: its keys (DTMF) and its names (voice). */
function languageGrammars(agent: CompiledAgent, keys: readonly string[], lang: string): FieldGrammar[] {
  const dtmf: FieldGrammar = {
    kind: 'srgs',
    mode: 'dtmf',
    root: 'language_key',
    items: keys.map((k) => ({ phrase: k, tag: k })),
  };
  const names = agent.languages.flatMap((l) =>
    (LANGUAGE_WORDS[l.split('-')[0]!] ?? []).map((w) => ({ phrase: w, tag: w })),
  );
  return names.length > 0
    ? [{ kind: 'srgs', mode: 'voice', root: 'language_name', items: names, lang }, dtmf]
    : [dtmf];
}

/**
 * The ask's grammars: the node's own, else the intents' or the entity's. With transcription on, the
 * transcription grammar takes the place of the voice grammars; the DTMF ones stay (withTranscription).
 */
function grammarsFor(answer: AnswerSpec, ctx: DocumentContext, lang: string): FieldGrammar[] {
  const { settings } = ctx;
  const dialect = settings.dialect as DialectName;
  const asked = askedGrammars(answer, ctx, dialect, lang);
  return settings.transcription.enabled
    ? withTranscription(asked, dialect, settings.transcription.engine)
    : asked;
}

function askedGrammars(
  answer: AnswerSpec,
  ctx: DocumentContext,
  dialect: DialectName,
  lang: string,
): FieldGrammar[] {
  const own = nodeGrammars(answer.overrides?.grammar ?? []);
  if (own.length) return own;
  if (!answer.await || answer.await.kind === 'intent') {
    const keys = answer.await?.languageKeys ?? [];
    return keys.length > 0
      ? [intentGrammar(ctx, lang), ...languageGrammars(ctx.agent, keys, lang)]
      : [intentGrammar(ctx, lang)];
  }
  return entityGrammars(renderedAwait(answer.await), dialect, { lang });
}

/** Standard responses built in for a call in another language than the app's (issue 43). */
const BUILT_IN_RESPONSES: Readonly<Record<string, IvrSettings['standardResponses']>> = {
  es: {
    noInput: 'Perdone, no le he oído.',
    noMatch: 'Perdone, no le he entendido.',
    error: 'Lo sentimos, algo ha fallado por nuestra parte. Inténtelo más tarde.',
    goodbye: 'Adiós.',
    hold: 'Un momento, por favor.',
  },
};

/**
 * The standard responses in the call's language: the app's in its own language; in another, the
 * app's texts for that language (IVR settings languages.standardResponses), else the built-in ones.
 */
export function responsesIn(
  settings: IvrSettings,
  appLang: string,
  lang: string,
): IvrSettings['standardResponses'] {
  if (lang === appLang || lang.split('-')[0] === appLang.split('-')[0]) return settings.standardResponses;
  const own = settings.languages.standardResponses[lang] ?? {};
  const builtIn = BUILT_IN_RESPONSES[lang.split('-')[0]!] ?? settings.standardResponses;
  return { ...builtIn, ...Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined)) };
}

export function toVxmlDocument(answer: AnswerSpec, ctx: DocumentContext): VxmlDocument {
  const { settings } = ctx;
  const vars = callVars(ctx);
  const submit = { url: ctx.submitUrl, fetchtimeout: str(settings.vxmlProperties.fetchtimeout) };
  // the call's language (the agent's answer carries it), else the app's
  const lang = answer.language ?? ctx.lang;
  const responses = responsesIn(settings, ctx.lang, lang);
  // the TTS voice of the call's language (IVR settings languages.voices, else the dialect's)
  const voice = voiceFor(settings, lang);
  const voiced = voice ? { voice } : {};
  const prompt = renderedPrompt(answer.prompt);
  const overrides = answer.overrides;
  // played when a submit still fails after its resends
  const apology = textPrompt(responses.error);
  switch (answer.action) {
    case 'ask':
      return {
        kind: 'ask',
        lang,
        ...voiced,
        vars,
        submit,
        prompt,
        fieldName: fieldNameFromKey(settings.dataExtractionKey),
        grammars: grammarsFor(answer, ctx, lang),
        grammarBase: new URL('/ivr/grammars', ctx.submitUrl).toString(),
        documentProperties: documentProperties(settings),
        fieldProperties: fieldProperties(answer),
        noInputPrompt: overrides?.noInputPrompt
          ? renderedPrompt(overrides.noInputPrompt)
          : textPrompt(responses.noInput),
        noMatchPrompt: overrides?.noMatchPrompt
          ? renderedPrompt(overrides.noMatchPrompt)
          : textPrompt(responses.noMatch),
        retries: overrides?.retries ?? settings.retries,
        hangupCatch: true,
        apology,
      };
    case 'continue':
      return { kind: 'say', lang, ...voiced, vars, submit, prompt, apology };
    case 'transfer': {
      const t = answer.transfer!;
      const aai = t.skillGroupId
        ? [
            `skillGroupId=${aaiValue(t.skillGroupId)}`,
            `skillGroupName=${aaiValue(t.skillGroupName ?? '')}`,
          ].join(';')
        : undefined;
      return {
        kind: 'transfer',
        lang,
        ...voiced,
        vars,
        submit,
        prompt,
        destination: t.destination,
        ...(aai ? { aai } : {}),
        connecttimeout: '30s',
        apology,
      };
    }
    case 'end':
      return {
        kind: 'end',
        lang,
        ...voiced,
        callId: ctx.callId,
        from: vars.from,
        to: vars.to,
        prompt,
        behaviour: settings.endOfConversationBehavior === 'terminateCall' ? 'disconnect' : 'return',
      };
    case 'error':
      return {
        kind: 'error',
        lang,
        ...voiced,
        callId: ctx.callId,
        from: vars.from,
        to: vars.to,
        prompt: prompt.length ? prompt : apology,
        error: answer.error ?? 'agent_error',
      };
  }
}

/** The hold document: replays the hold prompt and polls for the pending answer of `turn`. */
export function waitDocument(ctx: Omit<DocumentContext, 'agent'>, holdPrompt?: string): VxmlDocument {
  const voice = voiceFor(ctx.settings, ctx.lang);
  return {
    kind: 'wait',
    lang: ctx.lang,
    ...(voice ? { voice } : {}),
    vars: callVars(ctx),
    submit: { url: ctx.submitUrl },
    prompt: textPrompt(holdPrompt ?? ctx.settings.standardResponses.hold),
    apology: textPrompt(ctx.settings.standardResponses.error),
  };
}
