/**
 * Dates said in Spanish ("el cinco de marzo", "mañana", "pasado mañana", "el próximo viernes",
 * "dentro de tres días", "el 3 de abril de 2027"), for the date entity of a call in Spanish. Number words
 * become digits first (spanish-numbers.ts); chrono-node's Spanish parser reads the rest.
 */
import { es } from 'chrono-node';
import { spanishNumbersAsDigits } from './spanish-numbers.js';

const DAY_MS = 86_400_000;

/**
 * The day a Spanish text names, as a UTC-midnight timestamp, relative to `base` (today, as a
 * UTC-midnight timestamp); a date without a year is the next one on or after today. Undefined when
 * the text names no day (a month alone, a time alone).
 */
export function findSpanishDate(text: string, base: number): number | undefined {
  const folded = spanishNumbersAsDigits(text);
  if (/\bpasado manana\b/.test(folded)) return base + 2 * DAY_MS;
  if (/\b(la )?(proxima semana|semana que viene)\b/.test(folded)) return base + 7 * DAY_MS;
  // noon of today in UTC: the parser's answer is read as a calendar day, whatever the zone of the call
  const reference = { instant: new Date(base + DAY_MS / 2), timezone: 'UTC' };
  for (const result of es.parse(folded, reference, { forwardDate: true })) {
    const start = result.start;
    if (!start.isCertain('day') && !start.isCertain('weekday')) continue;
    const year = start.get('year');
    const month = start.get('month');
    const day = start.get('day');
    if (year === null || month === null || day === null) continue;
    const t = Date.UTC(year, month - 1, day);
    const check = new Date(t);
    if (check.getUTCMonth() === month - 1 && check.getUTCDate() === day) return t;
  }
  return undefined;
}
