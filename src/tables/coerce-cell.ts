/**
 * The agent's table node writes literals (`{"attempts": 1}`, `{"vip": true}`) and rendered
 * templates (always text unless the template is one placeholder). Before such a record is checked
 * against the table, each value is brought to its column's type where that is lossless: a number
 * or boolean into a string column is its text, a numeric string into a number column is the
 * number. Anything else is left as it is, so the table's own check reports it at its path.
 */
import { normaliseIsoDate } from './iso-date.js';
import type { ColumnDef } from './tables-schemas.js';

const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

export function coerceCell(column: ColumnDef, value: unknown): unknown {
  switch (column.type) {
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'number':
      return typeof value === 'string' && NUMERIC.test(value) ? Number(value) : value;
    case 'date':
      return value;
  }
}

/** Why a literal (a value with no placeholder) cannot go into a column, or null when it can. */
export function literalProblem(column: ColumnDef, literal: string | number | boolean): string | null {
  const value = coerceCell(column, literal);
  switch (column.type) {
    case 'string':
      return column.maxLength !== undefined && [...String(value)].length > column.maxLength
        ? `must be at most ${column.maxLength} characters`
        : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : `the column ${column.name} is a number; ${JSON.stringify(literal)} is not one`;
    case 'date':
      return typeof literal === 'string' && normaliseIsoDate(literal)
        ? null
        : `the column ${column.name} is a date; write it as an ISO 8601 date, e.g. 2024-05-01`;
  }
}
