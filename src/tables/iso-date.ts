/**
 * ISO 8601 dates as data-table values: a calendar date (`2024-05-01`) or a date-time with an
 * optional offset (`2024-05-01T10:00`, `2024-05-01T10:00:00.5+02:00`, `…Z`). Values are stored
 * normalised to UTC (`toISOString()`): a date alone is midnight UTC, a date-time without an offset
 * is read as UTC. Impossible dates (2023-02-29, 25:00) are refused.
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const daysInMonth = (year: number, month: number): number => {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
};

/** The UTC ISO form of an ISO 8601 date or date-time, or null when it is not one. */
export function normaliseIsoDate(input: string): string | null {
  const m = ISO_DATE.exec(input.trim());
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  const ms = Number(`${m[7] ?? ''}000`.slice(0, 3));
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMin = 0;
  const tz = m[8];
  if (tz && tz.toUpperCase() !== 'Z') {
    const digits = tz.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || 0);
    if (oh > 23 || om > 59) return null;
    offsetMin = (tz.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  const t = d.getTime() - offsetMin * 60_000;
  const out = new Date(t);
  const y = out.getUTCFullYear();
  if (Number.isNaN(t) || y < 1 || y > 9999) return null;
  return out.toISOString();
}
