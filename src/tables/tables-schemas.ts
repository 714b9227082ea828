/**
 * Shapes of the data-table API: the operator's table definition (our `columns` shape or the
 * platform's `schemaDef` alias, both normalised to one `TableDefinition`) and the insert body.
 */
import { z } from 'zod';
import { normaliseIsoDate } from './iso-date.js';

/** Table and column names: a letter, then letters, digits or `_`; at most 64 characters. */
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const NAME_RULE = 'must start with a letter and hold only letters, digits and _ (at most 64 characters)';
export const SYSTEM_COLUMNS = [
  'sys_Id',
  '_id',
  'Created_On',
  'Updated_On',
  'Created_By',
  'Updated_By',
] as const;
export const COLUMN_TYPES = ['string', 'number', 'date'] as const;
export const MAX_COLUMNS = 200;
const STREAM_ID = /^st-[0-9a-f-]{36}$/;

export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface ColumnDef {
  name: string;
  type: ColumnType;
  required: boolean;
  unique: boolean;
  encrypted: boolean;
  maxLength?: number;
  default?: string | number;
  /** Name of a referenced table, kept as given (not enforced). */
  reference?: string;
}

export interface TableAccess {
  read: boolean;
  write: boolean;
}

export interface TableDefinition {
  tableName: string;
  columns: ColumnDef[];
  access: Record<string, TableAccess>;
  createdOn: string;
  updatedOn: string;
}

export type TableDefinitionInput = Pick<TableDefinition, 'columns' | 'access'> & {
  /** Which request member held the columns (for error paths). */
  source: 'columns' | 'schemaDef';
};

export const tableNameParam = z.object({ tableName: z.string().regex(NAME_PATTERN, NAME_RULE) });
/** The public insert path: any name; one that cannot exist answers 404 (checked in the service). */
export const publicTableNameParam = z.object({ tableName: z.string().min(1).max(200) });

const columnName = z.string().regex(NAME_PATTERN, NAME_RULE);
const defaultValue = z
  .union([z.string().max(10_000), z.number()])
  .nullable()
  .optional();
const maxLength = z.number().int().min(1).max(1_000_000).optional();
const reference = z.string().regex(NAME_PATTERN, NAME_RULE).nullable().optional();

const column = z.strictObject({
  name: columnName,
  type: z.enum(COLUMN_TYPES),
  required: z.boolean().optional(),
  maxLength,
  default: defaultValue,
  unique: z.boolean().optional(),
  encrypted: z.boolean().optional(),
  reference,
});

/** The platform's definition shape; `unique` is our addition (the platform uses a separate index). */
const schemaDefColumn = z.strictObject({
  name: columnName,
  type: z.enum(COLUMN_TYPES),
  isRequired: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
  reference,
  maxLength,
  default: defaultValue,
  unique: z.boolean().optional(),
});

const access = z.record(z.string(), z.strictObject({ read: z.boolean(), write: z.boolean() }));

const definitionShape = z.strictObject({
  columns: z.array(column).min(1).max(MAX_COLUMNS).optional(),
  schemaDef: z.array(schemaDefColumn).min(1).max(MAX_COLUMNS).optional(),
  access: access.optional(),
});
type DefinitionShape = z.infer<typeof definitionShape>;

const UNIQUE_WITH_ENCRYPTED =
  'a column cannot be both unique and encrypted: encrypted values are sealed with a fresh random IV, so equal values never ' +
  'look equal at rest, and enforcing uniqueness would need the clear value (or a deterministic fingerprint of it) in the ' +
  'unique index, which would undo the encryption';

function toColumns(v: DefinitionShape): ColumnDef[] {
  const fromColumns = (v.columns ?? []).map((c) => ({
    name: c.name,
    type: c.type,
    required: c.required ?? false,
    unique: c.unique ?? false,
    encrypted: c.encrypted ?? false,
    maxLength: c.maxLength,
    default: c.default ?? undefined,
    reference: c.reference ?? undefined,
  }));
  const fromSchemaDef = (v.schemaDef ?? []).map((c) => ({
    name: c.name,
    type: c.type,
    required: c.isRequired ?? false,
    unique: c.unique ?? false,
    encrypted: c.isEncrypted ?? false,
    maxLength: c.maxLength,
    default: c.default ?? undefined,
    reference: c.reference ?? undefined,
  }));
  return [...fromColumns, ...fromSchemaDef].map((c) => {
    const out: ColumnDef = {
      name: c.name,
      type: c.type,
      required: c.required,
      unique: c.unique,
      encrypted: c.encrypted,
    };
    if (c.maxLength !== undefined) out.maxLength = c.maxLength;
    if (c.default !== undefined)
      out.default =
        c.type === 'date' && typeof c.default === 'string'
          ? (normaliseIsoDate(c.default) ?? c.default)
          : c.default;
    if (c.reference !== undefined) out.reference = c.reference;
    return out;
  });
}

/** Why a default does not fit its column, or null. */
function defaultProblem(c: ColumnDef): string | null {
  const d = c.default;
  if (d === undefined) return null;
  if (c.unique) return 'a unique column cannot have a default: every row without a value would collide';
  if (c.type === 'number')
    return typeof d === 'number' && Number.isFinite(d)
      ? null
      : 'the default of a number column must be a number';
  if (typeof d !== 'string') return `the default of a ${c.type} column must be a string`;
  if (c.type === 'date')
    return normaliseIsoDate(d) ? null : 'the default of a date column must be an ISO 8601 date';
  if (c.maxLength !== undefined && [...d].length > c.maxLength)
    return `the default is longer than maxLength (${c.maxLength})`;
  return null;
}

function checkDefinition(v: DefinitionShape, ctx: z.RefinementCtx): void {
  if (v.columns && v.schemaDef) {
    ctx.addIssue({
      code: 'custom',
      path: ['schemaDef'],
      message: 'give either columns or schemaDef, not both',
    });
    return;
  }
  if (!v.columns && !v.schemaDef) {
    ctx.addIssue({
      code: 'custom',
      path: ['columns'],
      message: 'columns (or the platform alias schemaDef) is required',
    });
    return;
  }
  const key = v.columns ? 'columns' : 'schemaDef';
  const system = new Set(SYSTEM_COLUMNS.map((s) => s.toLowerCase()));
  const seen = new Map<string, number>();
  toColumns(v).forEach((c, i) => {
    const lower = c.name.toLowerCase();
    const first = seen.get(lower);
    // a name that breaks the pattern already has its issue
    if (!NAME_PATTERN.test(c.name)) {
      // nothing more to say about it
    } else if (system.has(lower)) {
      ctx.addIssue({
        code: 'custom',
        path: [key, i, 'name'],
        message: `${c.name} is a system column (read-only; set by the service)`,
      });
    } else if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key, i, 'name'],
        message: `duplicate column name (same as ${key}[${first}]; names are compared case-insensitively)`,
      });
    } else {
      seen.set(lower, i);
    }
    if (c.maxLength !== undefined && c.type !== 'string')
      ctx.addIssue({
        code: 'custom',
        path: [key, i, 'maxLength'],
        message: 'maxLength applies only to string columns',
      });
    if (c.unique && c.encrypted)
      ctx.addIssue({ code: 'custom', path: [key, i, 'unique'], message: UNIQUE_WITH_ENCRYPTED });
    const problem = defaultProblem(c);
    if (problem) ctx.addIssue({ code: 'custom', path: [key, i, 'default'], message: problem });
  });
  for (const id of Object.keys(v.access ?? {})) {
    if (!STREAM_ID.test(id))
      ctx.addIssue({ code: 'custom', path: ['access', id], message: 'must be keyed by an app id st-<uuid>' });
  }
}

/** PUT /api/admin/tables/:tableName body, validated and normalised. */
export const tableDefinitionBody = definitionShape
  .superRefine(checkDefinition)
  .transform((v): TableDefinitionInput => ({
    columns: toColumns(v),
    access: v.access ?? {},
    source: v.columns ? 'columns' : 'schemaDef',
  }));

/** POST /api/public/tables/:tableName body. */
export const insertBody = z.strictObject({ data: z.record(z.string(), z.unknown()) });

const columnAnswer = z.object({
  name: z.string(),
  type: z.enum(COLUMN_TYPES),
  required: z.boolean(),
  unique: z.boolean(),
  encrypted: z.boolean(),
  maxLength: z.number().optional(),
  default: z.union([z.string(), z.number()]).optional(),
  reference: z.string().optional(),
});

export const tableDefinitionAnswer = z.object({
  tableName: z.string(),
  columns: z.array(columnAnswer),
  access: access,
  createdOn: z.string(),
  updatedOn: z.string(),
});

export const recordAnswer = z
  .record(z.string(), z.unknown())
  .describe('submitted columns plus sys_Id, _id, Created_On, Updated_On, Created_By, Updated_By');
