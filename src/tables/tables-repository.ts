/**
 * Data tables in the store. All keys of a table share the `{t:<table>}` hash tag, so a row, its
 * place in the row index and its unique-index entries are written in ONE `atomic` call:
 * - tableDefinition: hash { def: JSON definition, writes: insert counter }
 * - tableRow: JSON { record, sealed: [columns sealed with the Sealer] }
 * - tableRows: sorted set of row ids scored by creation time
 * - tableUnique(column): hash canonical value → row id, guarded with `hashField absent`
 * - tableInsert(key hash): the row id an insert with an idempotency key wrote, guarded with
 *   `absent` and kept for a while (`insertKeyTtlMs`), so a repeated insert finds its row
 * Every insert is guarded by the definition it was validated against (and bumps `writes`), and a
 * redefinition is guarded by both, so a row is never indexed under a stale definition.
 */
import { storeKeys, type Guard, type Store, type WriteOp } from '../store/index.js';
import type { TableDefinition } from './tables-schemas.js';

export interface StoredRow {
  record: Record<string, unknown>;
  /** Columns whose value in `record` is sealed (a JSON value sealed with the Sealer). */
  sealed: string[];
}

export interface DefinitionSnapshot {
  def: TableDefinition;
  raw: string;
  writes: string | null;
}

export type InsertOutcome =
  | { ok: true }
  | { ok: false; reason: 'definition-changed' }
  | { ok: false; reason: 'duplicate'; column: string }
  /** An insert with the same idempotency key wrote row `id` before (null: its key expired meanwhile). */
  | { ok: false; reason: 'inserted-before'; id: string | null };

/** Fields per HSET op, so Redis' Lua `unpack` stays far below its stack limit. */
const HSET_CHUNK = 500;
const READ_CHUNK = 500;

function hsetChunks(key: string, entries: Array<[string, string]>): WriteOp[] {
  const ops: WriteOp[] = [];
  for (let i = 0; i < entries.length; i += HSET_CHUNK) {
    ops.push({ op: 'hset', key, fields: Object.fromEntries(entries.slice(i, i + HSET_CHUNK)) });
  }
  return ops;
}

export class TablesRepository {
  constructor(
    private readonly store: Store,
    private readonly insertKeyTtlMs = 24 * 3600 * 1000,
  ) {}

  async readDefinition(table: string): Promise<DefinitionSnapshot | null> {
    const h = await this.store.hgetall(storeKeys.tableDefinition(table));
    if (!h.def) return null;
    return { def: JSON.parse(h.def) as TableDefinition, raw: h.def, writes: h.writes ?? null };
  }

  /**
   * Writes a definition and its unique-index changes (the indexes of `dropColumns` deleted, those in
   * `indexes` written afresh) when the table is still as `prev` saw it: same definition and no
   * insert since (`writes`). False when it changed meanwhile.
   */
  async saveDefinition(
    def: TableDefinition,
    prev: DefinitionSnapshot | null,
    indexes: Map<string, Map<string, string>>,
    dropColumns: string[],
  ): Promise<boolean> {
    const defKey = storeKeys.tableDefinition(def.tableName);
    const guards: Guard[] = prev
      ? [
          { key: defKey, hashField: 'def', equals: prev.raw },
          prev.writes === null
            ? { key: defKey, hashField: 'writes', absent: true }
            : { key: defKey, hashField: 'writes', equals: prev.writes },
        ]
      : [{ key: defKey, hashField: 'def', absent: true }];
    const ops: WriteOp[] = [{ op: 'hset', key: defKey, fields: { def: JSON.stringify(def) } }];
    for (const column of new Set([...dropColumns, ...indexes.keys()]))
      ops.push({ op: 'del', key: storeKeys.tableUnique(def.tableName, column) });
    for (const [column, entries] of indexes)
      ops.push(...hsetChunks(storeKeys.tableUnique(def.tableName, column), [...entries]));
    return (await this.store.atomic(ops, guards)).ok;
  }

  /** Every row of a table (for rebuilding unique indexes when a table is redefined). */
  async listRows(table: string): Promise<Array<{ id: string; row: StoredRow }>> {
    const ids = (await this.store.zrange(storeKeys.tableRows(table), 0, -1)).map((m) => m.member);
    const out: Array<{ id: string; row: StoredRow }> = [];
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK);
      const raws = await this.store.mget(chunk.map((id) => storeKeys.tableRow(table, id)));
      raws.forEach((raw, j) => {
        if (raw) out.push({ id: chunk[j]!, row: JSON.parse(raw) as StoredRow });
      });
    }
    return out;
  }

  async findRow(table: string, id: string): Promise<StoredRow | null> {
    const raw = await this.store.get(storeKeys.tableRow(table, id));
    return raw ? (JSON.parse(raw) as StoredRow) : null;
  }

  /**
   * Inserts a row and its unique-index entries in one atomic step, guarded by the definition
   * snapshot and by `absent` on every unique value. With `insertKey` (an idempotency key's hash),
   * also guarded by that key's absence and writing it: an insert repeated with the same key writes
   * nothing and answers the row the first one wrote (checked before the unique values, which that
   * row holds).
   */
  async insertRow(
    snapshot: DefinitionSnapshot,
    id: string,
    createdMs: number,
    row: StoredRow,
    uniques: Array<{ column: string; value: string }>,
    insertKey?: string,
  ): Promise<InsertOutcome> {
    const table = snapshot.def.tableName;
    const defKey = storeKeys.tableDefinition(table);
    const once = insertKey === undefined ? undefined : storeKeys.tableInsert(table, insertKey);
    const guards: Guard[] = [
      { key: defKey, hashField: 'def', equals: snapshot.raw },
      ...(once ? [{ key: once, absent: true as const }] : []),
      ...uniques.map((u): Guard => ({
        key: storeKeys.tableUnique(table, u.column),
        hashField: u.value,
        absent: true,
      })),
    ];
    const ops: WriteOp[] = [
      { op: 'set', key: storeKeys.tableRow(table, id), value: JSON.stringify(row) },
      { op: 'zadd', key: storeKeys.tableRows(table), score: createdMs, member: id },
      ...uniques.map((u): WriteOp => ({
        op: 'hset',
        key: storeKeys.tableUnique(table, u.column),
        fields: { [u.value]: id },
      })),
      { op: 'hincrby', key: defKey, field: 'writes', by: 1 },
      ...(once ? [{ op: 'set' as const, key: once, value: id, ttlMs: this.insertKeyTtlMs }] : []),
    ];
    const r = await this.store.atomic(ops, guards);
    if (r.ok) return { ok: true };
    if (r.failedGuard === 0) return { ok: false, reason: 'definition-changed' };
    if (once && r.failedGuard === 1)
      return { ok: false, reason: 'inserted-before', id: await this.store.get(once) };
    return { ok: false, reason: 'duplicate', column: uniques[r.failedGuard - (once ? 2 : 1)]!.column };
  }
}
