import { noMatch, type Extraction, type EntityInput } from './entity-types.js';

/** Any non-empty text, trimmed and with inner whitespace collapsed. */
export function extractString(input: EntityInput): Extraction {
  const value = input.text.replace(/\s+/g, ' ').trim();
  return value === '' ? noMatch : { ok: true, value };
}
