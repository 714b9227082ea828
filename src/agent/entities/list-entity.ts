import { noMatch, type Extraction, type EntityInput, type ListValue } from './entity-types.js';

const normalize = (text: string): string =>
  ` ${text
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/** The values with their synonyms, flattened (for grammars and the await spec). */
export function listPhrases(values: readonly ListValue[]): string[] {
  return values.flatMap((v) => (typeof v === 'string' ? [v] : [v.value, ...v.synonyms]));
}

/**
 * The value whose name or synonym occurs in the text as a whole-word phrase (case-insensitive,
 * the longest such phrase wins). A DTMF key N selects the Nth value.
 */
export function extractListValue(input: EntityInput, values: readonly ListValue[]): Extraction {
  const text = input.text.trim();
  if (input.inputmode === 'dtmf' && /^\d+$/.test(text)) {
    const chosen = values[Number(text) - 1];
    if (chosen !== undefined) return { ok: true, value: typeof chosen === 'string' ? chosen : chosen.value };
  }
  const haystack = normalize(text);
  let best: { value: string; length: number } | undefined;
  for (const v of values) {
    const value = typeof v === 'string' ? v : v.value;
    for (const phrase of typeof v === 'string' ? [v] : [v.value, ...v.synonyms]) {
      const needle = normalize(phrase);
      if (needle.trim() === '') continue;
      if (haystack.includes(needle) && (!best || needle.length > best.length))
        best = { value, length: needle.length };
    }
  }
  return best ? { ok: true, value: best.value } : noMatch;
}
