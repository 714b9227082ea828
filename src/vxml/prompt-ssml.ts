/**
 * PromptPart[] → the content of a `<prompt>` (text, break, emphasis, say-as, prosody, audio) through
 * the typed SSML builder. Parts arrive already merged (several messages in a row are the caller's
 * concern). Text is plain text, never markup. Nesting deeper than MAX_DEPTH is flattened (its words
 * are still spoken) so a pathological structure cannot exhaust the stack.
 */
import type { PromptPart } from './document-spec.js';
import type { SsmlContainer } from './ssml-builder.js';

const MAX_DEPTH = 16;

/** Languages that write a decimal comma (and a point, or nothing, between thousands). */
const DECIMAL_COMMA = new Set(['es', 'fr', 'pt', 'de', 'it', 'nl']);
/** A number as the agent writes it (JavaScript's way, maybe with English thousands commas). */
const ENGLISH_NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
const NUMERIC = new Set(['cardinal', 'number', 'currency']);
/** A calendar date as entities keep it: yyyy-mm-dd or yyyymmdd. */
const ISO_DATE = /^\d{4}-?\d{2}-?\d{2}$/;

/**
 * A say-as as the document's language reads it. Values reach prompts written the agent's way
 * (numbers as JavaScript prints them, dates as yyyy-mm-dd), whatever the call's language; the
 * synthesiser reads the content by the rules of the document's language, where "1,5" is one and a
 * half and "1.500" fifteen hundred. So in a language with a decimal comma a number's separators
 * are swapped into that language's, and a date given as yyyy-mm-dd without a format gets
 * format="ymd", so no language reads it as day-month or month-day.
 */
export function sayAsIn(
  lang: string | undefined,
  interpretAs: string,
  format: string | undefined,
  text: string,
): { interpretAs: string; format: string | undefined; text: string } {
  const kind = interpretAs.trim().toLowerCase();
  const value = text.trim();
  if (kind === 'date' && format === undefined && ISO_DATE.test(value))
    return { interpretAs, format: 'ymd', text };
  const primary = lang?.split('-')[0]?.toLowerCase() ?? '';
  if (NUMERIC.has(kind) && DECIMAL_COMMA.has(primary) && ENGLISH_NUMBER.test(value)) {
    const [whole = '', fraction] = value.replace(/,/g, '').split('.');
    return { interpretAs, format, text: fraction === undefined ? whole : `${whole},${fraction}` };
  }
  return { interpretAs, format, text };
}

/** Appends `parts` to `target` (a `<prompt>` or an SSML container inside one). */
export function promptSsml(target: SsmlContainer, parts: readonly PromptPart[] | undefined, depth = 0): void {
  if (!parts) return;
  for (const part of parts) {
    switch (part?.type) {
      case 'text':
        target.text(part.text ?? '');
        break;
      case 'break': {
        const opts: Parameters<SsmlContainer['break']>[0] = {};
        if (part.time !== undefined) opts.time = part.time;
        if (part.strength !== undefined) opts.strength = part.strength;
        target.break(opts);
        break;
      }
      case 'say-as': {
        const s = sayAsIn(target.lang, part.interpretAs ?? '', part.format, part.text ?? '');
        target.sayAs(s.interpretAs, s.format, s.text);
        break;
      }
      case 'emphasis':
        promptSsml(depth < MAX_DEPTH ? target.emphasis(part.level) : target, part.parts, depth + 1);
        break;
      case 'prosody': {
        const opts: Parameters<SsmlContainer['prosody']>[0] = {};
        if (part.rate !== undefined) opts.rate = part.rate;
        if (part.pitch !== undefined) opts.pitch = part.pitch;
        if (part.volume !== undefined) opts.volume = part.volume;
        promptSsml(depth < MAX_DEPTH ? target.prosody(opts) : target, part.parts, depth + 1);
        break;
      }
      case 'audio':
        promptSsml(depth < MAX_DEPTH ? target.audio(part.src ?? '') : target, part.parts, depth + 1);
        break;
      default:
        break;
    }
  }
}
