/**
 * The language, voice and words of the documents a fault answers with (issue 43): the retry
 * document while the store is away and the error document, for a call in Spanish as for one in
 * English.
 */
import type { PromptVoice } from '../vxml/index.js';
import type { IvrSettings } from '../ivr-settings/index.js';
import { responsesIn } from './document-mapper.js';
import { channelLanguage, voiceFor } from './ivr-languages.js';
import type { WebhookRequest } from './webhook-input.js';

/** The language and voice a document is spoken in (none: the browser's voice for en-US). */
export type Spoken = { lang?: string; voice?: PromptVoice };

/**
 * How a fault's documents (the retry while the store is away, the error) speak to a call: in the
 * call's language when it is known here (the app's, or the channel's for the number dialled or the
 * root's `language`), with that language's voice and standard responses.
 */
export function faultSpeech(
  req: WebhookRequest,
  settings: IvrSettings,
  appLang: string | undefined,
): { spoken: Spoken; responses: IvrSettings['standardResponses'] } {
  const lang = channelLanguage(req, settings) ?? appLang;
  if (!lang) return { spoken: {}, responses: settings.standardResponses };
  const voice = voiceFor(settings, lang);
  // the app's language unknown (the store went away first): the language's own texts, else the built-in ones
  return {
    spoken: { lang, ...(voice ? { voice } : {}) },
    responses: responsesIn(settings, appLang ?? '', lang),
  };
}
