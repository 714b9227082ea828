import { noMatch, type Extraction, type EntityInput, type ExtractOptions } from './entity-types.js';
import { findSpanishDate } from './spanish-dates.js';
import { numberTokens, parseNumberAt } from './spoken-numbers.js';

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_MS = 86_400_000;

/** A calendar day as a UTC-midnight timestamp. */
type Day = number;

const dayOf = (y: number, m: number, d: number): Day | undefined => {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2999) return undefined;
  const t = Date.UTC(y, m - 1, d);
  const check = new Date(t);
  return check.getUTCMonth() === m - 1 && check.getUTCDate() === d ? t : undefined;
};

const iso = (day: Day): string => new Date(day).toISOString().slice(0, 10);

/** Today in the given zone, as a day. */
function today(now: Date, timeZone: string): Day {
  // UTC needs no time-zone data: the day starts at a multiple of DAY_MS
  if (timeZone === 'UTC') return Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'));
}

/** Month and day without a year: the next occurrence on or after today. */
function upcoming(base: Day, month: number, day: number): Day | undefined {
  const year = new Date(base).getUTCFullYear();
  const thisYear = dayOf(year, month, day);
  if (thisYear !== undefined && thisYear >= base) return thisYear;
  return (
    dayOf(year + 1, month, day) ??
    (month === 2 && day === 29 ? dayOf(year + 4 - (year % 4), 2, 29) : undefined)
  );
}

function numericForms(text: string, base: Day): Day | undefined | null {
  const isoMatch = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(text);
  if (isoMatch) return dayOf(Number(isoMatch[1]), Number(isoMatch[2]), Number(isoMatch[3]));
  const compact = /^(\d{4}|\?{4})(\d{2})(\d{2})$/.exec(text.trim());
  if (compact) {
    const [, y = '', m = '', d = ''] = compact;
    return y.startsWith('?') ? upcoming(base, Number(m), Number(d)) : dayOf(Number(y), Number(m), Number(d));
  }
  const us = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/.exec(text);
  if (us) {
    const [, m = '', d = '', y] = us;
    if (y === undefined) return upcoming(base, Number(m), Number(d));
    return dayOf(y.length === 2 ? 2000 + Number(y) : Number(y), Number(m), Number(d));
  }
  return null;
}

function relativeForms(tokens: readonly string[], base: Day): Day | undefined {
  const has = (...words: string[]): boolean => {
    for (let i = 0; i + words.length <= tokens.length; i += 1)
      if (words.every((w, j) => tokens[i + j] === w)) return true;
    return false;
  };
  if (has('day', 'after', 'tomorrow')) return base + 2 * DAY_MS;
  if (has('tomorrow')) return base + DAY_MS;
  if (has('today') || has('tonight') || has('this', 'evening')) return base;
  if (has('yesterday')) return base - DAY_MS;
  const inIdx = tokens.indexOf('in');
  if (inIdx >= 0) {
    const n =
      parseNumberAt(tokens, inIdx + 1) ??
      (tokens[inIdx + 1] === 'a' ? { value: 1, end: inIdx + 2 } : undefined);
    const unit = n ? tokens[n.end] : undefined;
    if (n && (unit === 'day' || unit === 'days')) return base + n.value * DAY_MS;
    if (n && (unit === 'week' || unit === 'weeks')) return base + n.value * 7 * DAY_MS;
  }
  if (has('next', 'week')) return base + 7 * DAY_MS;
  for (let i = 0; i < tokens.length; i += 1) {
    const wd = WEEKDAYS.indexOf((tokens[i] ?? '').replace(/s$/, ''));
    if (wd < 0) continue;
    const current = new Date(base).getUTCDay();
    let delta = (wd - current + 7) % 7;
    if (tokens[i - 1] === 'next' && delta === 0) delta = 7;
    return base + delta * DAY_MS;
  }
  return undefined;
}

function monthDayForms(tokens: readonly string[], base: Day): Day | undefined {
  for (let i = 0; i < tokens.length; i += 1) {
    const month = MONTHS[tokens[i] ?? ''];
    if (month === undefined) continue;
    // "march 3rd 2027", "march the third"
    let j = i + 1;
    if (tokens[j] === 'the') j += 1;
    let dayMatch: { value: number; end: number } | undefined = parseNumberAt(tokens, j);
    let yearIdx = dayMatch?.end;
    // "the 3rd of march", "3 march", "twenty first of march"
    if (!dayMatch || dayMatch.value > 31) {
      const k = tokens[i - 1] === 'of' ? i - 2 : i - 1;
      dayMatch = undefined;
      for (let start = Math.max(0, k - 1); start <= k && !dayMatch; start += 1) {
        const m = parseNumberAt(tokens, start);
        if (m && m.end === k + 1 && m.value <= 31) dayMatch = m;
      }
      yearIdx = i + 1;
    }
    if (!dayMatch) continue;
    const yearToken = yearIdx !== undefined ? tokens[yearIdx] : undefined;
    const year = yearToken && /^\d{4}$/.test(yearToken) ? Number(yearToken) : undefined;
    const found =
      year !== undefined ? dayOf(year, month, dayMatch.value) : upcoming(base, month, dayMatch.value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A calendar date as ISO yyyy-mm-dd: "2027-03-14", "3/14/2027", "3/14", DTMF or builtin-grammar
 * "20270314", "today", "tomorrow", "the day after tomorrow", "in 3 days", "friday", "next friday"
 * (strictly after today), "march 3", "march 3rd 2027", "the third of march", and the same said in
 * Spanish ("mañana", "el próximo viernes", "el tres de marzo"; spanish-dates.ts). Relative days resolve
 * against the injected clock in the given time zone; dates without a year take the next occurrence.
 */
export function extractDate(input: EntityInput, options: ExtractOptions): Extraction {
  let base: Day;
  try {
    base = today(options.now, options.timeZone ?? 'UTC');
  } catch {
    base = today(options.now, 'UTC');
  }
  const text = input.text.toLowerCase().trim();
  const numeric = numericForms(text, base);
  if (numeric !== null) return numeric === undefined ? noMatch : { ok: true, value: iso(numeric) };
  const tokens = numberTokens(text.replace(/\bthe\b/g, ' the '));
  const found = relativeForms(tokens, base) ?? monthDayForms(tokens, base) ?? findSpanishDate(text, base);
  return found === undefined ? noMatch : { ok: true, value: iso(found) };
}
