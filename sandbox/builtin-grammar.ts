/**
 * VoiceXML builtin grammars (`builtin:dtmf/digits?minlength=4`, `builtin:grammar/boolean`,
 * `builtin:voice/number`, `builtin:speech/transcribe`, or a field's `type="digits"`): parsing the
 * URI and matching typed text or keyed digits against digits, boolean and number.
 */

export interface BuiltinGrammar {
  /** digits | boolean | number | transcribe | date | currency | … (whatever the URI names). */
  type: string;
  /** dtmf for builtin:dtmf/…, voice for builtin:voice/…, builtin:grammar/… and builtin:speech/…. */
  mode: 'voice' | 'dtmf';
  params: Record<string, string>;
  src: string;
}

/** Parses `builtin:<mode>/<type>?a=1;b=2`; undefined when src is not a builtin URI. */
export function parseBuiltinGrammar(src: string, modeAttr?: string): BuiltinGrammar | undefined {
  const m = /^builtin:(?:(dtmf|voice|grammar|speech)\/)?([A-Za-z_-]+)(?:\?(.*))?$/.exec(src.trim());
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const pair of (m[3] ?? '').split(/[;&]/).filter(Boolean)) {
    const [k, v = ''] = pair.split('=');
    if (k) params[k.trim()] = v.trim();
  }
  const mode =
    m[1] === 'dtmf'
      ? 'dtmf'
      : m[1] === 'voice' || m[1] === 'speech'
        ? 'voice'
        : modeAttr === 'dtmf'
          ? 'dtmf'
          : 'voice';
  return { type: (m[2] as string).toLowerCase(), mode, params, src };
}

const WORD_DIGITS: Record<string, string> = {
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
const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const YES = new Set([
  'yes',
  'yeah',
  'yep',
  'yup',
  'sure',
  'correct',
  'right',
  'true',
  'ok',
  'okay',
  'affirmative',
]);
const NO = new Set(['no', 'nope', 'nah', 'false', 'wrong', 'negative', 'incorrect']);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[.,!?]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
}

function spokenDigits(text: string): string | undefined {
  let out = '';
  for (const w of words(text)) {
    if (/^\d+$/.test(w)) out += w;
    else if (WORD_DIGITS[w] !== undefined) out += WORD_DIGITS[w];
    else return undefined;
  }
  return out === '' ? undefined : out;
}

function spokenNumber(text: string): number | undefined {
  const compact = text.trim().replace(/,/g, '');
  if (/^[-+]?\d+(\.\d+)?$/.test(compact)) return Number(compact);
  let total = 0;
  let current = 0;
  let seen = false;
  let sign = 1;
  for (const w of words(text)) {
    if (w === 'and') continue;
    if (w === 'minus' || w === 'negative') sign = -1;
    else if (SMALL[w] !== undefined) current += SMALL[w];
    else if (w === 'hundred') current = (current || 1) * 100;
    else if (w === 'thousand' || w === 'million') {
      total += (current || 1) * (w === 'thousand' ? 1000 : 1_000_000);
      current = 0;
    } else return undefined;
    seen = true;
  }
  return seen ? sign * (total + current) : undefined;
}

function lengthOk(digits: string, params: Record<string, string>): boolean {
  const n = digits.length;
  if (params.length !== undefined && n !== Number(params.length)) return false;
  if (params.minlength !== undefined && n < Number(params.minlength)) return false;
  if (params.maxlength !== undefined && n > Number(params.maxlength)) return false;
  return true;
}

/**
 * The interpretation of an input under a builtin grammar, or undefined for no match.
 * `input` is the typed text (voice) or the keyed digits (dtmf). Types other than digits, boolean
 * and number are accepted as free text here; whether they are allowed at all is the caller's decision.
 */
export function matchBuiltin(
  grammar: BuiltinGrammar,
  input: string,
  inputmode: 'voice' | 'dtmf',
): { interpretation: unknown } | undefined {
  const { type, params } = grammar;
  if (inputmode === 'dtmf') {
    if (type === 'digits')
      return /^[0-9]+$/.test(input) && lengthOk(input, params) ? { interpretation: input } : undefined;
    if (type === 'boolean') {
      if (input === (params.y ?? '1')) return { interpretation: true };
      if (input === (params.n ?? '2')) return { interpretation: false };
      return undefined;
    }
    if (type === 'number')
      return /^\d+(\*\d+)?$/.test(input) ? { interpretation: Number(input.replace('*', '.')) } : undefined;
    return /^[0-9*]+$/.test(input) ? { interpretation: input } : undefined;
  }
  if (type === 'digits') {
    const digits = spokenDigits(input);
    return digits !== undefined && lengthOk(digits, params) ? { interpretation: digits } : undefined;
  }
  if (type === 'boolean') {
    const ws = words(input);
    if (ws.length === 0 || ws.length > 3) return undefined;
    if (ws.some((w) => YES.has(w)) && !ws.some((w) => NO.has(w))) return { interpretation: true };
    if (ws.some((w) => NO.has(w)) && !ws.some((w) => YES.has(w))) return { interpretation: false };
    return undefined;
  }
  if (type === 'number') {
    const n = spokenNumber(input);
    return n === undefined ? undefined : { interpretation: n };
  }
  return input.trim() === '' ? undefined : { interpretation: input.trim() };
}
