/**
 * The agent's `nlu` block and the per-intent recognition settings, resolved once at compile time:
 * every default lives in NLU_DEFAULTS (and nowhere else), so a calibration that moves the threshold
 * changes one constant. The prompts of the confirmation and disambiguation questions are plain text
 * with `{label}`, `{first}` and `{second}` slots (no SSML, no `{{…}}` placeholders).
 */

import { declaredLanguages, primary, textIn, type LocalizedText } from './languages.js';

export type ConfirmMode = 'auto' | 'always' | 'never';

/** Every default of the recognition settings (the only place they are written). */
export const NLU_DEFAULTS = {
  /** The absolute confidence an intent needs; below it the turn goes to the fallback dialog. */
  threshold: 0.4,
  /** Two intents whose confidences are at most this far apart are asked about ("X, or Y?"). */
  margin: 0.1,
  /**
   * Confidences from the threshold up to (not including) this level are confirmed ("Did you want
   * to X?"). null: the threshold itself, so that nothing is confirmed unless the agent asks for it.
   */
  confirmAbove: null as number | null,
  prompts: {
    confirm: 'Did you want to {label}?',
    choose: 'Do you want to {first}, or {second}?',
    denied: 'Sorry about that. What would you like to do?',
  },
} as const;

/** The default prompts in other languages than English (by primary subtag). */
export const NLU_DEFAULT_PROMPTS: Readonly<
  Record<string, Record<keyof typeof NLU_DEFAULTS.prompts, string>>
> = {
  en: NLU_DEFAULTS.prompts,
  es: {
    confirm: '¿Quería {label}?',
    choose: '¿Quiere {first}, o {second}?',
    denied: 'Disculpe. ¿Qué desea hacer?',
  },
};

/** The slots each prompt may use. */
export const NLU_PROMPT_SLOTS = {
  confirm: ['label'],
  choose: ['first', 'second'],
  denied: [],
} as const satisfies Record<keyof typeof NLU_DEFAULTS.prompts, readonly string[]>;

export type NluPromptName = keyof typeof NLU_PROMPT_SLOTS;

export interface IntentNluSettings {
  /** How prompts name the intent ("refill a prescription"). */
  label: string;
  confirm: ConfirmMode;
  confirmAbove: number;
}

export interface NluSettings {
  threshold: number;
  margin: number;
  confirmAbove: number;
  prompts: Record<NluPromptName, string>;
  intents: ReadonlyMap<string, IntentNluSettings>;
}

/** Words a derived label writes with an article after them ("refill a prescription"). */
const ARTICLE_AFTER = new Set([
  'refill',
  'book',
  'order',
  'make',
  'leave',
  'open',
  'report',
  'request',
  'schedule',
  'cancel',
  'change',
  'find',
]);

/**
 * A label from an intent name: its words in lower case, with "a" after a verb that takes one when
 * the next word is singular. RefillPrescription → "refill a prescription", store_hours →
 * "store hours", CheckBalance → "check balance".
 */
export function labelFromName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
  const out: string[] = [];
  words.forEach((w, i) => {
    out.push(w);
    const next = words[i + 1];
    if (i === 0 && ARTICLE_AFTER.has(w) && next !== undefined && words.length === 2 && !next.endsWith('s'))
      out.push(/^[aeiou]/.test(next) ? 'an' : 'a');
  });
  return out.join(' ');
}

/** The members of a validated definition the settings are read from (declared here: no import cycle). */
export interface NluSource {
  intentThreshold?: number | undefined;
  language?: string | undefined;
  languages?: readonly string[] | undefined;
  nlu?:
    | {
        threshold?: number | undefined;
        margin?: number | undefined;
        confirmAbove?: number | undefined;
        prompts?: Partial<Record<NluPromptName, LocalizedText | undefined>> | undefined;
      }
    | undefined;
  intents: ReadonlyArray<{
    name: string;
    label?: string | undefined;
    confirm?: ConfirmMode | undefined;
    confirmAbove?: number | undefined;
    translations?: Readonly<Record<string, { label?: string | undefined }>> | undefined;
  }>;
}

/**
 * The settings of a validated definition in one of its languages (default: its default language),
 * defaults applied; `nlu.threshold` wins over `intentThreshold`. A prompt or label missing in the
 * language is the language's default prompt, else the default language's text.
 */
export function resolveNluSettings(def: NluSource, language?: string): NluSettings {
  const nlu = def.nlu ?? {};
  const base = declaredLanguages(def)[0]!;
  const lang = language ?? base;
  const defaults = NLU_DEFAULT_PROMPTS[primary(lang)] ?? NLU_DEFAULTS.prompts;
  const prompt = (name: NluPromptName): string => {
    const given = nlu.prompts?.[name];
    if (typeof given === 'object') return textIn(given, lang, base, false) ?? defaults[name];
    return given !== undefined && lang === base ? given : defaults[name];
  };
  const threshold = nlu.threshold ?? def.intentThreshold ?? NLU_DEFAULTS.threshold;
  const confirmAbove = nlu.confirmAbove ?? NLU_DEFAULTS.confirmAbove ?? threshold;
  const intents = new Map<string, IntentNluSettings>();
  for (const intent of def.intents) {
    intents.set(intent.name, {
      label:
        (lang !== base ? intent.translations?.[lang]?.label : undefined) ??
        intent.label ??
        labelFromName(intent.name),
      confirm: intent.confirm ?? 'auto',
      confirmAbove: intent.confirmAbove ?? confirmAbove,
    });
  }
  return {
    threshold,
    margin: nlu.margin ?? NLU_DEFAULTS.margin,
    confirmAbove,
    prompts: {
      confirm: prompt('confirm'),
      choose: prompt('choose'),
      denied: prompt('denied'),
    },
    intents,
  };
}

/** The `{name}` slots of a prompt text. */
export function promptSlots(text: string): string[] {
  return [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
}

/** The prompt with its slots filled (plain text: the values are never read as markup). */
export function fillNluPrompt(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{([^{}]*)\}/g, (whole, name: string) => values[name] ?? whole);
}
