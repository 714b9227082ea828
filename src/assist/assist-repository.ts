/**
 * Imported skill groups in the store, under the app's `{a:<streamId>}` hash tag:
 * - skillGroups(app, accountId, orgId): hash group id → JSON of the group as imported
 * - skillGroupById(app): hash group id → JSON {name, accountId, orgId} (for the transfer node)
 * One import writes both in ONE atomic call; the same id written again replaces its field, so a
 * re-import never duplicates a group.
 */
import { storeKeys, type Store, type WriteOp } from '../store/index.js';
import type { SkillGroup } from './assist-schemas.js';

export interface SkillGroupIndexEntry {
  name: string;
  accountId: string;
  orgId: string;
}

/** Fields per HSET op, so Redis' Lua `unpack` stays far below its stack limit. */
const HSET_CHUNK = 500;

function hsetChunks(key: string, entries: Array<[string, string]>): WriteOp[] {
  const ops: WriteOp[] = [];
  for (let i = 0; i < entries.length; i += HSET_CHUNK)
    ops.push({ op: 'hset', key, fields: Object.fromEntries(entries.slice(i, i + HSET_CHUNK)) });
  return ops;
}

export class AssistRepository {
  constructor(private readonly store: Store) {}

  async saveSkillGroups(
    streamId: string,
    accountId: string,
    orgId: string,
    groups: SkillGroup[],
  ): Promise<void> {
    if (!groups.length) return;
    const groupEntries = groups.map((g): [string, string] => [g._id, JSON.stringify(g)]);
    const indexEntries = groups.map((g): [string, string] => [
      g._id,
      JSON.stringify({ name: g.name, accountId, orgId } satisfies SkillGroupIndexEntry),
    ]);
    const ops = [
      ...hsetChunks(storeKeys.skillGroups(streamId, accountId, orgId), groupEntries),
      ...hsetChunks(storeKeys.skillGroupById(streamId), indexEntries),
    ];
    await this.store.atomic(ops);
  }

  async listSkillGroups(streamId: string, accountId: string, orgId: string): Promise<SkillGroup[]> {
    const h = await this.store.hgetall(storeKeys.skillGroups(streamId, accountId, orgId));
    return Object.values(h).map((raw) => JSON.parse(raw) as SkillGroup);
  }

  async findIndexEntry(streamId: string, skillGroupId: string): Promise<SkillGroupIndexEntry | null> {
    const raw = await this.store.hget(storeKeys.skillGroupById(streamId), skillGroupId);
    return raw ? (JSON.parse(raw) as SkillGroupIndexEntry) : null;
  }

  async listIds(streamId: string): Promise<string[]> {
    return Object.keys(await this.store.hgetall(storeKeys.skillGroupById(streamId)));
  }
}
