/**
 * The texts of an agent definition per language, for the side-by-side translations view: each
 * intent's phrases and each text a caller hears (a node's text or prompt, an llm node's errorPrompt,
 * the ivr prompts, the nlu prompts), with what each language has. Edits return a new definition;
 * the definition given is never changed. The service decides what counts as missing
 * (src/agent/translation-gaps.ts); this follows the same rules so the view marks the same gaps.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A text a caller hears, at its place in the definition (object keys from the root). */
export interface TextRow {
  kind: 'text';
  /** A stable key for the row (its JSON path). */
  key: string;
  /** What the row is, for people ("welcome.hello text"). */
  label: string;
  path: string[];
  /** The text per language ('' when it has none). */
  texts: Record<string, string>;
}

/** An intent's phrases per language, one phrase a line. */
export interface PhrasesRow {
  kind: 'phrases';
  key: string;
  label: string;
  intent: number;
  phrases: Record<string, string[]>;
}

export type TranslationRow = TextRow | PhrasesRow;

/** The languages a definition declares, the default first (as the service reads them). */
export function definitionLanguages(def: unknown): string[] {
  if (!isObject(def)) return [];
  const { languages, language } = def;
  if (Array.isArray(languages) && languages.length > 0 && languages.every((l) => typeof l === 'string'))
    return languages;
  return typeof language === 'string' ? [language] : ['en-US'];
}

/** The node fields a caller hears, by node type (an llm node's prompt goes to a model, in any language). */
const HEARD: Record<string, readonly string[]> = {
  message: ['text'],
  end: ['text'],
  transfer: ['text'],
  entity: ['prompt'],
  llm: ['errorPrompt'],
};
const IVR_PROMPTS = ['noInputPrompt', 'noMatchPrompt', 'errorPrompt'] as const;

function textsOf(value: unknown, languages: readonly string[]): Record<string, string> {
  const base = languages[0]!;
  const out: Record<string, string> = {};
  for (const lang of languages) {
    if (typeof value === 'string') out[lang] = lang === base ? value : '';
    else if (isObject(value) && typeof value[lang] === 'string') out[lang] = value[lang];
    else out[lang] = '';
  }
  return out;
}

/** Every translatable text and phrase list of a definition, in the definition's order. */
export function translationRows(def: unknown): TranslationRow[] {
  if (!isObject(def)) return [];
  const languages = definitionLanguages(def);
  const base = languages[0]!;
  const rows: TranslationRow[] = [];
  const intents = Array.isArray(def.intents) ? def.intents : [];
  intents.forEach((intent, i) => {
    if (!isObject(intent)) return;
    const translations = isObject(intent.translations) ? intent.translations : {};
    const phrases: Record<string, string[]> = {};
    for (const lang of languages) {
      const own =
        lang === base
          ? intent.utterances
          : isObject(translations[lang])
            ? translations[lang].utterances
            : undefined;
      phrases[lang] = Array.isArray(own) ? own.filter((p): p is string => typeof p === 'string') : [];
    }
    rows.push({
      kind: 'phrases',
      key: `intents[${i}]`,
      label: `Intent ${typeof intent.name === 'string' ? intent.name : i + 1}: phrases`,
      intent: i,
      phrases,
    });
  });
  const text = (value: unknown, path: string[], label: string): void => {
    if (typeof value === 'string' || isObject(value))
      rows.push({ kind: 'text', key: path.join('.'), label, path, texts: textsOf(value, languages) });
  };
  const dialogs = isObject(def.dialogs) ? def.dialogs : {};
  for (const [name, dialog] of Object.entries(dialogs)) {
    const nodes = isObject(dialog) && isObject(dialog.nodes) ? dialog.nodes : {};
    for (const [id, node] of Object.entries(nodes)) {
      if (!isObject(node)) continue;
      const at = ['dialogs', name, 'nodes', id];
      for (const field of HEARD[typeof node.type === 'string' ? node.type : ''] ?? [])
        text(node[field], [...at, field], `${name}.${id} ${field}`);
      const ivr = isObject(node.ivr) ? node.ivr : {};
      for (const field of IVR_PROMPTS) text(ivr[field], [...at, 'ivr', field], `${name}.${id} ivr.${field}`);
    }
  }
  const prompts = isObject(def.nlu) && isObject(def.nlu.prompts) ? def.nlu.prompts : {};
  for (const [name, value] of Object.entries(prompts))
    if (isObject(value)) text(value, ['nlu', 'prompts', name], `nlu prompt ${name}`);
  return rows;
}

/** Whether a row lacks its text (or phrases) in `lang`. */
export function missingIn(row: TranslationRow, lang: string): boolean {
  return row.kind === 'text'
    ? row.texts[lang]?.trim() === '' || row.texts[lang] === undefined
    : (row.phrases[lang]?.length ?? 0) === 0;
}

/** How many texts and phrase lists miss a translation in any language. */
export function missingCount(rows: readonly TranslationRow[], languages: readonly string[]): number {
  return rows.filter((r) => languages.some((l) => missingIn(r, l))).length;
}

/**
 * The definition with a text set in `lang`: a plain string (the default language's) becomes an
 * object with a text per language; an empty text in another language is removed.
 */
export function withText(def: unknown, path: readonly string[], lang: string, value: string): unknown {
  const copy = structuredClone(def) as Json;
  const base = definitionLanguages(copy)[0]!;
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) {
    if (!isObject(parent[key])) parent[key] = {};
    parent = parent[key] as Json;
  }
  const last = path[path.length - 1]!;
  const current = parent[last];
  const texts: Json = isObject(current)
    ? { ...current }
    : typeof current === 'string'
      ? { [base]: current }
      : {};
  if (value === '' && lang !== base) delete texts[lang];
  else texts[lang] = value;
  parent[last] = texts;
  return copy;
}

/** The definition with an intent's phrases set in `lang` (`utterances`, or `translations.<lang>.utterances`). */
export function withPhrases(def: unknown, intent: number, lang: string, phrases: readonly string[]): unknown {
  const copy = structuredClone(def) as Json;
  const base = definitionLanguages(copy)[0]!;
  const intents: unknown[] = Array.isArray(copy.intents) ? (copy.intents as unknown[]) : [];
  const target = intents[intent];
  if (!isObject(target)) return copy;
  if (lang === base) {
    target.utterances = [...phrases];
    return copy;
  }
  const translations: Json = isObject(target.translations) ? target.translations : {};
  const own: Json = isObject(translations[lang]) ? translations[lang] : {};
  translations[lang] = { ...own, utterances: [...phrases] };
  target.translations = translations;
  return copy;
}
