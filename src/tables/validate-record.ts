/**
 * Checks one submitted record against a table definition: unknown or system columns, types,
 * required columns, maxLength; applies defaults and normalises dates to UTC ISO. Returns the
 * values in column order and one problem per bad member, each with its path (`body.data.<col>`).
 */
import { normaliseIsoDate } from './iso-date.js';
import { SYSTEM_COLUMNS, type ColumnDef, type TableDefinition } from './tables-schemas.js';

export type CellValue = string | number | null;

export interface RecordCheck {
  values: Record<string, CellValue>;
  problems: Array<{ msg: string; path: string }>;
}

/** At most this many problems are reported (a body of 10 000 unknown members answers briefly). */
const MAX_PROBLEMS = 100;
const SYSTEM = new Set<string>(SYSTEM_COLUMNS);

function checkValue(c: ColumnDef, v: unknown): { value: CellValue } | { msg: string } {
  switch (c.type) {
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? { value: v } : { msg: 'must be a number' };
    case 'date': {
      // a Date object can only come through the port (the agent); JSON bodies carry strings
      const iso =
        typeof v === 'string'
          ? normaliseIsoDate(v)
          : v instanceof Date && !Number.isNaN(v.getTime())
            ? v.toISOString()
            : null;
      return iso
        ? { value: iso }
        : { msg: 'must be an ISO 8601 date, e.g. 2024-05-01 or 2024-05-01T10:00:00Z' };
    }
    case 'string':
      if (typeof v !== 'string') return { msg: 'must be a string' };
      if (c.maxLength !== undefined && [...v].length > c.maxLength)
        return { msg: `must be at most ${c.maxLength} characters` };
      return { value: v };
  }
}

export function validateRecord(
  def: TableDefinition,
  data: Record<string, unknown>,
  pathPrefix: string,
): RecordCheck {
  const problems: RecordCheck['problems'] = [];
  const columns = new Map(def.columns.map((c) => [c.name, c]));
  for (const key of Object.keys(data)) {
    if (columns.has(key)) continue;
    const msg = SYSTEM.has(key)
      ? `${key} is a system column; the service sets it`
      : `unknown column: the table ${def.tableName} has no column ${key}`;
    problems.push({ msg, path: `${pathPrefix}.${key}` });
  }
  const values: Record<string, CellValue> = {};
  for (const c of def.columns) {
    const given = Object.prototype.hasOwnProperty.call(data, c.name) ? data[c.name] : undefined;
    if (given === undefined || given === null) {
      if (c.default !== undefined) values[c.name] = c.default;
      else if (c.required) problems.push({ msg: 'is required', path: `${pathPrefix}.${c.name}` });
      else if (given === null) values[c.name] = null;
      continue;
    }
    const r = checkValue(c, given);
    if ('msg' in r) problems.push({ msg: r.msg, path: `${pathPrefix}.${c.name}` });
    else values[c.name] = r.value;
  }
  return { values, problems: problems.slice(0, MAX_PROBLEMS) };
}
