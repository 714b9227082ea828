/**
 * The languages of an agent (issue 43). An agent declares `languages` (the first is the default;
 * absent: its `language`, else en-US). Every text a caller hears may be a plain string (the default
 * language's) or an object with one text per declared language ({"en-US": "Hello", "es-US": "Hola"});
 * intents carry their phrases per language in `translations`. A text missing in a language is a
 * validation problem at its JSON path, unless the agent sets `translationFallback: true`: then the
 * default language's text is used and the gap is listed (`missingTranslations`) for the agent's status.
 */
import { z } from 'zod';

export const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
export const languageTagSchema = z
  .string()
  .regex(LANGUAGE_TAG, 'expected a language tag such as "en-US" or "es-US"');

/** A text in the default language, or one text per language. */
export function localizedText<T extends z.ZodString>(text: T) {
  return z.union([text, z.record(languageTagSchema, text)]);
}
export const localizedTextSchema = localizedText(z.string());
export type LocalizedText = string | Record<string, string>;

/** The declared languages of a definition as given (first = default). */
export function declaredLanguages(def: { language?: unknown; languages?: unknown }): string[] {
  if (
    Array.isArray(def.languages) &&
    def.languages.length > 0 &&
    def.languages.every((l) => typeof l === 'string')
  )
    return def.languages;
  return [typeof def.language === 'string' ? def.language : 'en-US'];
}

/** Two tags name the same language when equal, or when one is the other's primary subtag (es ~ es-US). */
export function sameLanguage(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x === y || x.split('-')[0] === y || y.split('-')[0] === x;
}

/** The declared language a requested tag names (exact first, then by primary subtag), or undefined. */
export function matchLanguage(
  languages: readonly string[],
  requested: string | undefined,
): string | undefined {
  if (requested === undefined || requested.trim() === '') return undefined;
  const r = requested.trim().replace('_', '-');
  return (
    languages.find((l) => l.toLowerCase() === r.toLowerCase()) ?? languages.find((l) => sameLanguage(l, r))
  );
}

/** The text of `value` in `language`; the default language's when it has none and `fallback` allows it. */
export function textIn(
  value: unknown,
  language: string,
  defaultLanguage: string,
  fallback = true,
): string | undefined {
  if (typeof value === 'string') return language === defaultLanguage || fallback ? value : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const map = value as Record<string, unknown>;
  const own = map[language];
  if (typeof own === 'string') return own;
  const def = map[defaultLanguage];
  return fallback && typeof def === 'string' ? def : undefined;
}

/** A language's name as a caller says it, in that language and in English (for the caller's choice). */
export const LANGUAGE_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: ['english', 'ingles', 'in english'],
  es: ['espanol', 'spanish', 'castellano', 'en espanol'],
  fr: ['francais', 'french', 'frances'],
  pt: ['portugues', 'portuguese'],
};

/** The offer of a language in its own words ("Para español, oprima dos o diga español."). */
export const LANGUAGE_OFFERS: Readonly<Record<string, (key: string) => string>> = {
  en: (key) => `For English, press ${key} or say English.`,
  es: (key) => `Para español, oprima ${key} o diga español.`,
};

export const KEY_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  es: ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'],
};

export const primary = (tag: string): string => tag.split('-')[0]!.toLowerCase();
