import { noMatch, type Extraction, type EntityInput } from './entity-types.js';

const YES = [
  'yes',
  'yeah',
  'yea',
  'yep',
  'yup',
  'ya',
  'sure',
  'correct',
  'right',
  'thats right',
  'that is right',
  'affirmative',
  'ok',
  'okay',
  'absolutely',
  'of course',
  'definitely',
  'certainly',
  'please do',
  'go ahead',
  'true',
  'exactly',
  'indeed',
  'uh huh',
  'mhm',
  'mm hmm',
  'y',
  // Spanish (accents are dropped before comparing)
  'si',
  'claro',
  'vale',
  'correcto',
  'exacto',
  'de acuerdo',
  'por supuesto',
  'afirmativo',
  'eso es',
  'desde luego',
];
const NO = [
  'no',
  'nope',
  'nah',
  'negative',
  'incorrect',
  'wrong',
  'not right',
  'not correct',
  'thats wrong',
  'that is wrong',
  'not really',
  'no way',
  'dont',
  'do not',
  'false',
  'cancel',
  'n',
  'negativo',
  'incorrecto',
  'para nada',
  'de ninguna manera',
];

const normalize = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((t) => t !== '');

const contains = (tokens: readonly string[], phrase: string): boolean => {
  const words = phrase.split(' ');
  for (let i = 0; i + words.length <= tokens.length; i += 1) {
    if (words.every((w, j) => tokens[i + j] === w)) return true;
  }
  return false;
};

/**
 * Yes or no in several phrasings ("yeah", "that's right", "nope", "negative"), DTMF 1 = yes and
 * 2 = no, grammar interpretations "true"/"false". A negation ("not right") wins over the positive
 * word it contains; an answer that says both ("yes no") is no match.
 */
export function extractYesNo(input: EntityInput): Extraction {
  const text = input.text.trim();
  if (input.inputmode === 'dtmf' || /^[12]$/.test(text)) {
    if (text === '1') return { ok: true, value: true };
    if (text === '2') return { ok: true, value: false };
  }
  const tokens = normalize(text);
  if (tokens.length === 0) return noMatch;
  if (
    ['dont know', 'do not know', 'not sure', 'no idea', 'no se', 'no estoy seguro', 'ni idea'].some((p) =>
      contains(tokens, p),
    )
  )
    return noMatch;
  const no = NO.some((p) => contains(tokens, p));
  const negatedYes = ['not right', 'not correct', 'thats wrong', 'that is wrong', 'not really'].some((p) =>
    contains(tokens, p),
  );
  const yes = YES.some((p) => contains(tokens, p));
  if (negatedYes) return { ok: true, value: false };
  if (yes && no) return noMatch;
  if (yes) return { ok: true, value: true };
  if (no) return { ok: true, value: false };
  return noMatch;
}
