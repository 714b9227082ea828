import { noMatch, type Extraction, type EntityInput } from './entity-types.js';
import { findSpanishNumber } from './spanish-numbers.js';
import { findNumber } from './spoken-numbers.js';

/**
 * A number: DTMF digits ("12", "*" as the decimal point: "4*5" = 4.5) or speech ("twelve",
 * "two hundred and five", "4.5", "a table for 4"), or Spanish words ("para cuatro").
 */
export function extractNumber(input: EntityInput): Extraction {
  const text = input.text.trim();
  if (input.inputmode === 'dtmf') {
    const keyed = text.replace(/#$/, '').replace('*', '.');
    if (/^\d+(\.\d+)?$/.test(keyed)) return { ok: true, value: Number(keyed) };
  }
  const match = findNumber(text);
  if (match && Number.isFinite(match.value)) return { ok: true, value: match.value };
  const spanish = findSpanishNumber(text);
  return spanish !== undefined ? { ok: true, value: spanish } : noMatch;
}
