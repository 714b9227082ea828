import { noMatch, type Extraction, type EntityInput } from './entity-types.js';
import { findNumber } from './spoken-numbers.js';

/**
 * A number: DTMF digits ("12", "*" as the decimal point: "4*5" = 4.5) or speech ("twelve",
 * "two hundred and five", "4.5", "a table for 4").
 */
export function extractNumber(input: EntityInput): Extraction {
  const text = input.text.trim();
  if (input.inputmode === 'dtmf') {
    const keyed = text.replace(/#$/, '').replace('*', '.');
    if (/^\d+(\.\d+)?$/.test(keyed)) return { ok: true, value: Number(keyed) };
  }
  const match = findNumber(text);
  return match && Number.isFinite(match.value) ? { ok: true, value: match.value } : noMatch;
}
