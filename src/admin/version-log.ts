/**
 * The saved versions of one of an app's documents (its agent, its IVR settings): every document a
 * save accepted, by its version id (a hash of its JSON), with who saved it, when, and a note. Kept
 * in the app's slot: a sorted set by the time of saving and one record per version. Retention is
 * bounded: the newest `keep` versions stay, and so do the published one and the draft whatever their
 * age; older ones are removed after a save. Saving the same document again makes that version the
 * newest (its record names the new save).
 */
import type { Store, WriteOp } from '../store/index.js';

/** How many saved versions are kept (besides the published one and the draft). */
export const VERSIONS_KEPT = 50;

/** Where a log keeps its versions: the sorted set of an app's versions and one version's record (store-keys.ts builds both). */
export interface VersionLogKeys {
  index(streamId: string): string;
  doc(streamId: string, version: string): string;
}

export interface VersionRecord {
  version: string;
  savedAt: string;
  savedBy: string;
  note?: string;
  /** The last time it was published: when, by whom, and why. */
  lastPublished?: { at: string; by: string; note?: string };
}

interface StoredVersion extends VersionRecord {
  json: string;
}

export class VersionLog {
  constructor(
    private readonly store: Store,
    private readonly keys: VersionLogKeys,
    private readonly keep = VERSIONS_KEPT,
  ) {}

  /** Stores a version (or makes a saved one the newest, under its new author and note). */
  async record(streamId: string, rec: VersionRecord, json: string): Promise<void> {
    await this.store.atomic(this.recordOps(streamId, rec, json));
  }

  /** The writes that store a version, for a caller that makes them in one step with its own. */
  recordOps(streamId: string, rec: VersionRecord, json: string): WriteOp[] {
    const doc: StoredVersion = { ...rec, json };
    return [
      { op: 'set', key: this.keys.doc(streamId, rec.version), value: JSON.stringify(doc) },
      { op: 'zadd', key: this.keys.index(streamId), score: Date.parse(rec.savedAt), member: rec.version },
    ];
  }

  /** Removes the oldest versions past the retention, never one of `protect` (the published one, the draft). */
  async trim(streamId: string, protect: Array<string | null | undefined>): Promise<void> {
    const index = this.keys.index(streamId);
    const total = await this.store.zcard(index);
    if (total <= this.keep) return;
    const oldest = await this.store.zrange(index, 0, total - this.keep - 1);
    const kept = new Set(protect.filter((v): v is string => Boolean(v)));
    const drop = oldest.map((m) => m.member).filter((v) => !kept.has(v));
    if (!drop.length) return;
    await this.store.atomic(
      drop.flatMap((v): WriteOp[] => [
        { op: 'zrem', key: index, member: v },
        { op: 'del', key: this.keys.doc(streamId, v) },
      ]),
    );
  }

  /**
   * Notes on a kept version that it was published (when, by whom, why); written guarded on the
   * record read, so a save of the same version meanwhile is not undone (the note is then left out).
   */
  async markPublished(
    streamId: string,
    version: string,
    published: { at: string; by: string; note?: string },
  ): Promise<void> {
    const key = this.keys.doc(streamId, version);
    const raw = await this.store.get(key);
    if (!raw) return;
    const doc = { ...(JSON.parse(raw) as StoredVersion), lastPublished: published };
    await this.store.atomic([{ op: 'set', key, value: JSON.stringify(doc) }], [{ key, equals: raw }]);
  }

  /** Every kept version, newest first, without its definition. */
  async list(streamId: string): Promise<VersionRecord[]> {
    const members = await this.store.zrange(this.keys.index(streamId), 0, -1, { rev: true });
    if (!members.length) return [];
    const docs = await this.store.mget(members.map((m) => this.keys.doc(streamId, m.member)));
    return docs.flatMap((raw) => {
      if (!raw) return [];
      const { json: _json, ...rec } = JSON.parse(raw) as StoredVersion;
      return [rec];
    });
  }

  /** One version with its definition's JSON; null when it was never saved or is no longer kept. */
  async get(streamId: string, version: string): Promise<(VersionRecord & { json: string }) | null> {
    const raw = await this.store.get(this.keys.doc(streamId, version));
    return raw ? (JSON.parse(raw) as StoredVersion) : null;
  }
}
