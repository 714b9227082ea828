/**
 * The caller's choice of language (issue 43): after the welcome, an agent of several languages
 * offers the others in their own words ("Para español, oprima dos o diga español."); a key of a
 * language, or the language's name said on its own ("español", "in English please"), while the agent
 * awaits an intent switches the call to that language for the rest of the call and starts the
 * welcome dialog again in it. A language the channel set at the start (the number dialled, the
 * customer's root document) is not offered again, but the caller may still change it.
 */
import type { CompiledAgent } from './compile-agent.js';
import { KEY_WORDS, LANGUAGE_NAMES, LANGUAGE_OFFERS, primary } from './languages.js';
import type { PromptPart } from './turn-types.js';

/** True when the agent lets the caller choose the language. */
export function languageChoiceEnabled(agent: CompiledAgent): boolean {
  return agent.languages.length > 1 && agent.definition.languageChoice?.enabled !== false;
}

/** The key of each language: the agent's, else 1, 2, 3… in the order of `languages`. */
export function languageKeys(agent: CompiledAgent): Map<string, string> {
  const given = agent.definition.languageChoice?.keys ?? {};
  return new Map(agent.languages.map((lang, i) => [lang, given[lang] ?? String(i + 1)]));
}

/** The offer of every language but `current`, each in its own language. */
export function languageOffer(agent: CompiledAgent, current: string): PromptPart[] {
  const parts: PromptPart[] = [];
  for (const [lang, key] of languageKeys(agent)) {
    if (lang === current) continue;
    const p = primary(lang);
    const offer = LANGUAGE_OFFERS[p];
    if (!offer) continue;
    if (parts.length > 0) parts.push({ type: 'break', time: '200ms' });
    parts.push({ type: 'text', text: offer(KEY_WORDS[p]?.[Number(key)] ?? key) });
  }
  return parts;
}

const FILLERS = new Set([
  'please',
  'in',
  'en',
  'por',
  'favor',
  'i',
  'want',
  'speak',
  'quiero',
  'hablar',
  'the',
  'language',
  'idioma',
]);

const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The language an utterance chooses: a key of a language (DTMF), or a language's name with at most
 * polite filler around it. Undefined for anything else (an ordinary request is never taken for a choice).
 */
export function chosenLanguage(
  agent: CompiledAgent,
  input: { text: string; inputmode: 'voice' | 'dtmf' },
): string | undefined {
  const text = fold(input.text);
  if (text === '') return undefined;
  if (input.inputmode === 'dtmf' || /^\d$/.test(text)) {
    const key = text.replace(/\s+/g, '');
    for (const [lang, k] of languageKeys(agent)) if (k === key) return lang;
    return undefined;
  }
  const words = text.split(' ').filter((w) => !FILLERS.has(w));
  if (words.length !== 1) return undefined;
  return agent.languages.find((lang) => (LANGUAGE_NAMES[primary(lang)] ?? []).includes(words[0]!));
}
