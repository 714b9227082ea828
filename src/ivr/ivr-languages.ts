/**
 * The call's language as the IVR channel knows it (issue 43): at the start, a `language` parameter
 * from the customer's root document, else the language of the number dialled (IVR settings
 * `languages.byNumber`); and the standard responses in the agent's other languages.
 */
import type { AgentRuntimeSettings, TurnInput } from '../agent/index.js';
import type { IvrSettings } from './ivr-settings-schema.js';
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
    out[lang] = { ...(r.noMatch ? { noMatchPrompt: r.noMatch } : {}), ...(r.error ? { errorPrompt: r.error } : {}), ...(r.noInput ? { noInputPrompt: r.noInput } : {}) };
  }
  return out;
}
