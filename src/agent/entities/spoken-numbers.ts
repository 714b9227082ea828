/**
 * Spoken English numbers: "twelve", "two hundred and five", "one thousand two hundred", "4.5",
 * "four point five", "1,200", ordinals ("third", "twenty-first") and digit-by-digit forms.
 */

const UNITS: Record<string, number> = {
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
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000 };
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};

/** Lower case words; hyphens and most punctuation become spaces; "1,200" keeps its digits. */
export function numberTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[^a-z0-9.'\s]+/g, ' ')
    .replace(/\.(?!\d)/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '');
}

const ORDINAL_DIGITS = /^(\d+)(st|nd|rd|th)$/;

/** The value of one word as a digit-like token: "4", "four", "4th"; undefined otherwise. */
export function wordValue(token: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(token)) return Number(token);
  const ord = ORDINAL_DIGITS.exec(token);
  if (ord) return Number(ord[1]);
  return UNITS[token] ?? TENS[token] ?? ORDINALS[token];
}

const isNumberWord = (t: string): boolean => wordValue(t) !== undefined || t in SCALES || t === 'a';

export interface NumberMatch {
  value: number;
  /** index of the first and after-last token of the match */
  start: number;
  end: number;
  /** every token was a single digit ("four five six"): the digits, in order */
  digits?: string;
}

/** Parses the number that starts at `start` (greedy); undefined when no number starts there. */
export function parseNumberAt(tokens: readonly string[], start: number): NumberMatch | undefined {
  let total = 0;
  let current = 0;
  let seen = false;
  let lastKind: 'unit' | 'ten' | 'scale' | 'digits' | undefined;
  let allSingleDigits = true;
  let digits = '';
  let i = start;
  for (; i < tokens.length; i += 1) {
    const t = tokens[i] ?? '';
    if (t === 'and' && seen && i + 1 < tokens.length && isNumberWord(tokens[i + 1] ?? '')) continue;
    if (t === 'a' && !seen && (tokens[i + 1] ?? '') in SCALES) {
      current = 1;
      seen = true;
      lastKind = 'unit';
      allSingleDigits = false;
      continue;
    }
    const scale = SCALES[t];
    if (scale !== undefined) {
      if (!seen) break;
      allSingleDigits = false;
      if (scale === 100) current = (current || 1) * 100;
      else {
        total += (current || 1) * scale;
        current = 0;
      }
      lastKind = 'scale';
      continue;
    }
    const v = wordValue(t);
    if (v === undefined) break;
    const isDigitString = /^\d/.test(t);
    const kind = isDigitString ? 'digits' : t in TENS ? 'ten' : 'unit';
    const single = (isDigitString && /^\d$/.test(t)) || (!isDigitString && v < 10 && t in UNITS);
    if (seen) {
      const fitsAfterTen = lastKind === 'ten' && kind === 'unit' && v < 10;
      const fitsAfterScale = lastKind === 'scale' && (current % 100 === 0 || current === 0) && v < 100;
      if (!(fitsAfterTen || fitsAfterScale || (allSingleDigits && single))) break;
    }
    if (!single) allSingleDigits = false;
    digits += single ? String(v) : '';
    current += v;
    seen = true;
    lastKind = kind;
  }
  if (!seen) return undefined;
  // "four point five"
  let value = total + current;
  if (tokens[i] === 'point') {
    let frac = '';
    let j = i + 1;
    for (; j < tokens.length; j += 1) {
      const d = UNITS[tokens[j] ?? ''] ?? (/^\d$/.test(tokens[j] ?? '') ? Number(tokens[j]) : undefined);
      if (d === undefined || d > 9) break;
      frac += String(d);
    }
    if (frac) {
      value = Number(`${value}.${frac}`);
      i = j;
      allSingleDigits = false;
    }
  }
  const count = i - start;
  if (allSingleDigits && count > 1) return { value: Number(digits), start, end: i, digits };
  return { value, start, end: i };
}

/** The first number in the text, if any. */
export function findNumber(text: string): NumberMatch | undefined {
  const tokens = numberTokens(text);
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i] ?? '';
    if ((t === 'a' && !((tokens[i + 1] ?? '') in SCALES)) || t === 'and' || t === 'point') continue;
    const m = parseNumberAt(tokens, i);
    if (m) return m;
  }
  return undefined;
}
