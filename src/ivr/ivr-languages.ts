/**
 * The call's language as the IVR channel knows it (issue 43): at the start, a `language` parameter
 * from the customer's root document, else the language of the number dialled (IVR settings
 * `languages.byNumber`); the standard responses in the agent's other languages; and the TTS voice
 * of each language.
 */
import type { AgentRuntimeSettings, TurnInput } from '../agent/index.js';
import { dialectProfile, type PromptVoice } from '../vxml/index.js';
import type { IvrSettings } from '../ivr-settings/index.js';
import type { WebhookRequest } from './webhook-input.js';

/** A number as dialled, its formatting dropped ("+1 (555) 0100" → "+15550100"). */
const dialled = (n: string): string => n.replace(/[^\d+]/g, '');

/** The language the channel gives a new call, if any. */
export function channelLanguage(req: WebhookRequest, settings: IvrSettings): string | undefined {
  if (req.language) return req.language;
  const to = req.to;
  if (!to) return undefined;
  const byNumber = settings.languages.byNumber;
  return byNumber[to] ?? Object.entries(byNumber).find(([n]) => dialled(n) === dialled(to))?.[1];
}

/** The agent's first input of a call, with the channel's language when there is one. */
export function startInput(req: WebhookRequest, settings: IvrSettings): TurnInput {
  const language = channelLanguage(req, settings);
  return language ? { kind: 'start', language } : { kind: 'start' };
}

/** The app's standard responses per other language, as the agent takes them. */
export function languageResponses(settings: IvrSettings): NonNullable<AgentRuntimeSettings['byLanguage']> {
  const out: NonNullable<AgentRuntimeSettings['byLanguage']> = {};
  for (const [lang, r] of Object.entries(settings.languages.standardResponses)) {
    out[lang] = {
      ...(r.noMatch ? { noMatchPrompt: r.noMatch } : {}),
      ...(r.error ? { errorPrompt: r.error } : {}),
      ...(r.noInput ? { noInputPrompt: r.noInput } : {}),
    };
  }
  return out;
}

/** A voice setting by the call's language: its own tag, else its primary subtag (`es` for es-US). */
function byLanguage<T>(voices: Readonly<Record<string, T>>, lang: string): T | undefined {
  const tag = lang.toLowerCase();
  const key =
    Object.keys(voices).find((k) => k.toLowerCase() === tag) ??
    Object.keys(voices).find((k) => k.toLowerCase() === tag.split('-')[0]);
  return key === undefined ? undefined : voices[key];
}

/**
 * The TTS voice of a call's documents in `lang`: the IVR settings' (`languages.voices`), else the
 * dialect's default for the language, else none (the browser's voice for the document's xml:lang).
 */
export function voiceFor(settings: IvrSettings, lang: string): PromptVoice | undefined {
  const voice =
    byLanguage(settings.languages.voices, lang) ??
    byLanguage(dialectProfile(settings.dialect).defaultVoices, lang);
  if (!voice || (voice.name === undefined && voice.gender === undefined)) return undefined;
  return { ...voice, lang };
}
