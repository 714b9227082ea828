/**
 * Entity extraction from speech text or DTMF digits, one extractor per type under entities/.
 * The caller's words are tried first, then the grammar's interpretation when it differs (a builtin
 * boolean grammar answers "true"/"false", a builtin date grammar "20270314").
 */
import { extractDate } from './entities/date-entity.js';
import { extractDigits } from './entities/digits-entity.js';
import {
  noMatch,
  type EntityInput,
  type EntitySpec,
  type Extraction,
  type ExtractOptions,
} from './entities/entity-types.js';
import { extractListValue } from './entities/list-entity.js';
import { extractNumber } from './entities/number-entity.js';
import { extractString } from './entities/string-entity.js';
import { extractYesNo } from './entities/yesno-entity.js';

export type {
  EntityInput,
  EntitySpec,
  EntityType,
  Extraction,
  ExtractOptions,
  ListValue,
} from './entities/entity-types.js';
export { listPhrases } from './entities/list-entity.js';

function extractOne(spec: EntitySpec, input: EntityInput, options: ExtractOptions): Extraction {
  switch (spec.type) {
    case 'string':
      return extractString(input);
    case 'number':
      return extractNumber(input);
    case 'digits':
      return extractDigits(input, spec);
    case 'date':
      return extractDate(input, options);
    case 'yesno':
      return extractYesNo(input);
    case 'list':
      return extractListValue(input, spec.values ?? []);
    default:
      return noMatch;
  }
}

/**
 * The keys as one string: a browser may report a DTMF utterance as "2 0 2 7" (the grammar's tokens)
 * or as "2027". Free text, and a grammar's interpretation, keep what the browser reported.
 */
function keyed(spec: EntitySpec, input: EntityInput): EntityInput {
  return input.inputmode === 'dtmf' && spec.type !== 'string'
    ? { text: input.text.replace(/\s+/g, ''), inputmode: 'dtmf' }
    : input;
}

/** Extracts the entity from the utterance, then from the interpretation (when given and different). */
export function extractEntity(
  spec: EntitySpec,
  input: EntityInput & { interpretation?: string },
  options: ExtractOptions,
): Extraction {
  const said = keyed(spec, { text: input.text, inputmode: input.inputmode });
  const first = extractOne(spec, said, options);
  if (first.ok) return first;
  const interpretation = input.interpretation?.trim();
  if (interpretation && interpretation !== said.text.trim() && spec.type !== 'string') {
    return extractOne(spec, { text: interpretation, inputmode: input.inputmode }, options);
  }
  return noMatch;
}
