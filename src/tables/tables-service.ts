/**
 * Data-table use cases: define a table (operator), insert a record (an app with write access,
 * through the public API or the agent's table node), read a stored row back in clear.
 */
import { randomUUID } from 'node:crypto';
import { AppError, isoNow, sha256, type Logger, type Sealer } from '../platform/index.js';
import type { AppsService } from '../admin/index.js';
import { NAME_PATTERN, type TableDefinition, type TableDefinitionInput } from './tables-schemas.js';
import { TablesRepository, type DefinitionSnapshot, type StoredRow } from './tables-repository.js';
import { validateRecord, type CellValue } from './validate-record.js';
import { coerceCell } from './coerce-cell.js';

/** Optimistic retries when the definition changes between reading it and writing. */
const MAX_ATTEMPTS = 5;

const tableNotFound = (): AppError => AppError.notFound('Table not found');

function coerceRecord(def: TableDefinition, data: Record<string, unknown>): Record<string, unknown> {
  const columns = new Map(def.columns.map((c) => [c.name, c]));
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => [
      name,
      columns.has(name) ? coerceCell(columns.get(name)!, value) : value,
    ]),
  );
}

export class TablesService {
  constructor(
    private readonly repo: TablesRepository,
    private readonly sealer: Sealer,
    private readonly apps: AppsService,
    private readonly logger: Logger,
  ) {}

  /**
   * Creates or redefines a table. Existing rows are kept; unique indexes are rebuilt from them.
   * Access for an unknown app is refused, except a rule the table already had for an app deleted
   * since: that one is dropped, so a table an app was deleted from can still be redefined.
   */
  async define(tableName: string, input: TableDefinitionInput): Promise<TableDefinition> {
    const had = (await this.repo.readDefinition(tableName))?.def.access ?? {};
    const unknownApps = [];
    const access = { ...input.access };
    for (const streamId of Object.keys(input.access)) {
      if (await this.apps.findApp(streamId)) continue;
      if (Object.hasOwn(had, streamId)) delete access[streamId];
      else unknownApps.push({ msg: 'unknown app', path: `body.access.${streamId}` });
    }
    if (unknownApps.length) throw AppError.validation(unknownApps);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const prev = await this.repo.readDefinition(tableName);
      const now = isoNow();
      const def: TableDefinition = {
        tableName,
        columns: input.columns,
        access,
        createdOn: prev?.def.createdOn ?? now,
        updatedOn: now,
      };
      // indexes of columns unique before and after are kept; newly unique ones are built from the rows
      const wasUnique = new Set(prev?.def.columns.filter((c) => c.unique).map((c) => c.name) ?? []);
      const isUnique = new Set(def.columns.filter((c) => c.unique).map((c) => c.name));
      const indexes = prev
        ? await this.buildIndexes(def, input.source, wasUnique)
        : new Map<string, Map<string, string>>();
      const drop = [...wasUnique].filter((name) => !isUnique.has(name));
      if (await this.repo.saveDefinition(def, prev, indexes, drop)) {
        this.logger.info(
          { table: tableName, columns: def.columns.length, redefined: Boolean(prev) },
          'table defined',
        );
        return def;
      }
    }
    throw AppError.conflict('The table changed while it was being redefined; try again');
  }

  /** The table's definition, or null when there is no such table. */
  async findDefinition(tableName: string): Promise<TableDefinition | null> {
    return NAME_PATTERN.test(tableName) ? ((await this.repo.readDefinition(tableName))?.def ?? null) : null;
  }

  async getDefinition(tableName: string): Promise<TableDefinition> {
    const snap = NAME_PATTERN.test(tableName) ? await this.repo.readDefinition(tableName) : null;
    if (!snap) throw tableNotFound();
    return snap.def;
  }

  /**
   * Inserts one record written by `writer` (a streamId). Errors: 404 unknown table, 403 without
   * write access, 400 per bad member (paths under `pathPrefix`), 409 duplicate on a unique column.
   * With `coerce` (the agent's table node), values are first brought to their column's type. With
   * `idempotencyKey`, an insert the writer already made with that key answers its row and writes
   * nothing (a resumed turn finds the row its first run wrote).
   */
  async insert(
    writer: string,
    tableName: string,
    data: Record<string, unknown>,
    pathPrefix: string,
    coerce = false,
    idempotencyKey?: string,
  ): Promise<Record<string, unknown>> {
    const insertKey = idempotencyKey === undefined ? undefined : sha256(`${writer}\u0000${idempotencyKey}`);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const snap = NAME_PATTERN.test(tableName) ? await this.repo.readDefinition(tableName) : null;
      if (!snap) throw tableNotFound();
      if (snap.def.access[writer]?.write !== true)
        throw AppError.forbidden('Permission denied. The app has no write access to this table');
      const { values, problems } = validateRecord(
        snap.def,
        coerce ? coerceRecord(snap.def, data) : data,
        pathPrefix,
      );
      if (problems.length) throw AppError.validation(problems);
      const result = await this.tryInsert(writer, snap, values, pathPrefix, insertKey);
      if (result) return result;
    }
    throw AppError.conflict('The table definition changed during the insert; try again');
  }

  /** A stored row with its encrypted columns opened (for the operator and tests), or null. */
  async readRow(tableName: string, sysId: string): Promise<Record<string, unknown> | null> {
    if (!NAME_PATTERN.test(tableName)) return null;
    const row = await this.repo.findRow(tableName, sysId);
    return row ? this.open(row) : null;
  }

  private async tryInsert(
    writer: string,
    snap: DefinitionSnapshot,
    values: Record<string, CellValue>,
    pathPrefix: string,
    insertKey?: string,
  ) {
    const uuid = randomUUID();
    const sysId = `sys-${uuid}`;
    const now = new Date();
    const at = isoNow(now);
    const system = {
      sys_Id: sysId,
      _id: uuid,
      Created_On: at,
      Updated_On: at,
      Created_By: writer,
      Updated_By: writer,
    };
    const clear: Record<string, unknown> = { ...values, ...system };
    const stored: StoredRow = { record: { ...clear }, sealed: [] };
    const uniques: Array<{ column: string; value: string }> = [];
    for (const c of snap.def.columns) {
      const v = values[c.name];
      if (v === undefined || v === null) continue;
      if (c.encrypted) {
        stored.record[c.name] = this.sealer.seal(JSON.stringify(v));
        stored.sealed.push(c.name);
      }
      if (c.unique) uniques.push({ column: c.name, value: String(v) });
    }
    const r = await this.repo.insertRow(snap, sysId, now.getTime(), stored, uniques, insertKey);
    if (r.ok) return clear;
    if (r.reason === 'inserted-before') {
      const first = r.id === null ? null : await this.readRow(snap.def.tableName, r.id);
      if (first) return first;
      throw AppError.conflict('The row this insert repeats is gone');
    }
    if (r.reason === 'duplicate') {
      throw AppError.conflict(
        `Duplicate value for the unique column ${r.column}`,
        `${pathPrefix}.${r.column}`,
      );
    }
    return null;
  }

  private open(row: StoredRow): Record<string, unknown> {
    const out = { ...row.record };
    for (const c of row.sealed) {
      const v = out[c];
      if (typeof v === 'string') out[c] = JSON.parse(this.sealer.open(v)) as unknown;
    }
    return out;
  }

  /**
   * Unique indexes for the columns of `def` that become unique (not in `existing`), over the rows
   * already stored; 409 when existing rows hold duplicates.
   */
  private async buildIndexes(
    def: TableDefinition,
    source: string,
    existing: Set<string>,
  ): Promise<Map<string, Map<string, string>>> {
    const uniqueCols = def.columns
      .map((c, i) => ({ c, i }))
      .filter((x) => x.c.unique && !existing.has(x.c.name));
    const indexes = new Map<string, Map<string, string>>(
      uniqueCols.map((x) => [x.c.name, new Map<string, string>()]),
    );
    if (!uniqueCols.length) return indexes;
    const rows = await this.repo.listRows(def.tableName);
    for (const { id, row } of rows) {
      const rec = this.open(row);
      for (const { c, i } of uniqueCols) {
        const v = rec[c.name];
        // stored cells are strings, numbers or null (validateRecord); null and absent are not indexed
        if (typeof v !== 'string' && typeof v !== 'number') continue;
        const index = indexes.get(c.name)!;
        if (index.has(String(v))) {
          throw AppError.conflict(
            `Existing rows hold duplicate values in column ${c.name}, so it cannot be unique`,
            `body.${source}.${i}.unique`,
          );
        }
        index.set(String(v), id);
      }
    }
    return indexes;
  }
}
