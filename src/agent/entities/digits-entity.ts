import { noMatch, type Extraction, type EntityInput, type EntitySpec } from './entity-types.js';
import { numberTokens } from './spoken-numbers.js';

const DIGIT_WORDS: Record<string, string> = {
  zero: '0',
  oh: '0',
  o: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};
const REPEAT: Record<string, number> = { double: 2, triple: 3 };

/** Digits as they were keyed or spoken one by one, checked against min/max length. */
export function spokenDigits(text: string): string {
  const tokens = numberTokens(text);
  let out = '';
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i] ?? '';
    const times = REPEAT[t];
    const nextDigit = times
      ? (DIGIT_WORDS[tokens[i + 1] ?? ''] ?? (/^\d$/.test(tokens[i + 1] ?? '') ? tokens[i + 1] : undefined))
      : undefined;
    if (times && nextDigit !== undefined) {
      out += nextDigit.repeat(times);
      i += 1;
    } else if (/^\d+$/.test(t)) out += t;
    else if (DIGIT_WORDS[t] !== undefined) out += DIGIT_WORDS[t];
  }
  return out;
}

export function extractDigits(
  input: EntityInput,
  spec: Pick<EntitySpec, 'minLength' | 'maxLength'>,
): Extraction {
  const text = input.text.trim();
  const digits =
    input.inputmode === 'dtmf' && /^[\d]+#?$/.test(text) ? text.replace(/#$/, '') : spokenDigits(text);
  if (digits === '') return noMatch;
  if (spec.minLength !== undefined && digits.length < spec.minLength) return noMatch;
  if (spec.maxLength !== undefined && digits.length > spec.maxLength) return noMatch;
  return { ok: true, value: digits };
}
