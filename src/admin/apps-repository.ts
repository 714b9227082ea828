/** Apps, API apps and API keys in the store. */
import { storeKeys, type Store } from '../store/index.js';
import type { Sealer } from '../platform/index.js';
import { appRecord, type ApiAppListed, type AppRecord } from './admin-schemas.js';

export interface ApiAppRecord {
  clientId: string;
  streamId: string;
  name: string;
  scopes: string[];
  secret: string; // clear text in memory only; sealed in the store
  createdOn: string;
}

export class AppsRepository {
  constructor(
    private readonly store: Store,
    private readonly sealer: Sealer,
  ) {}

  async create(app: AppRecord): Promise<void> {
    await this.store.atomic([
      { op: 'set', key: storeKeys.appRecord(app.streamId), value: JSON.stringify(app) },
    ]);
    await this.store.atomic([
      { op: 'zadd', key: storeKeys.appIndex(), score: Date.parse(app.createdOn), member: app.streamId },
    ]);
  }

  async find(streamId: string): Promise<AppRecord | null> {
    const raw = await this.store.get(storeKeys.appRecord(streamId));
    return raw ? appRecord.parse(JSON.parse(raw)) : null;
  }

  async list(): Promise<AppRecord[]> {
    const ids = await this.store.zrange(storeKeys.appIndex(), 0, -1);
    const raws = await this.store.mget(ids.map((x) => storeKeys.appRecord(x.member)));
    return raws.filter((r): r is string => r !== null).map((r) => appRecord.parse(JSON.parse(r)));
  }

  /** Whether the app exists, or was being deleted when that stopped half-way (its index entry stays to the end). */
  async known(streamId: string): Promise<boolean> {
    return (
      (await this.store.exists(storeKeys.appRecord(streamId))) ||
      (await this.store.zscore(storeKeys.appIndex(), streamId)) !== null
    );
  }

  /**
   * Deletes the app's record first (the app is gone for every request from then on), then its API
   * apps, then every other key in the app's scope, and its index entry last, so that a deletion cut
   * off half-way can be run again.
   */
  async purge(streamId: string): Promise<void> {
    const clientIds = await this.store.smembers(storeKeys.appApiApps(streamId));
    await this.store.del([storeKeys.appRecord(streamId)]);
    await this.store.del(clientIds.map((c) => storeKeys.apiApp(c)));
    await this.store.deletePrefix(storeKeys.appScope(streamId));
    await this.store.atomic([{ op: 'zrem', key: storeKeys.appIndex(), member: streamId }]);
  }

  async createApiApp(rec: ApiAppRecord): Promise<void> {
    await this.store.hset(storeKeys.apiApp(rec.clientId), {
      streamId: rec.streamId,
      name: rec.name,
      scopes: JSON.stringify(rec.scopes),
      secret: this.sealer.seal(rec.secret),
      createdOn: rec.createdOn,
    });
    await this.store.atomic([{ op: 'sadd', key: storeKeys.appApiApps(rec.streamId), member: rec.clientId }]);
  }

  async findApiApp(clientId: string): Promise<ApiAppRecord | null> {
    const h = await this.store.hgetall(storeKeys.apiApp(clientId));
    if (!h.streamId || !h.secret) return null;
    return {
      clientId,
      streamId: h.streamId,
      name: h.name ?? '',
      scopes: JSON.parse(h.scopes ?? '[]') as string[],
      secret: this.sealer.open(h.secret),
      createdOn: h.createdOn ?? '',
    };
  }

  /** The app an API app belongs to (its secret is not opened), or null. */
  async findApiAppOwner(clientId: string): Promise<string | null> {
    return this.store.hget(storeKeys.apiApp(clientId), 'streamId');
  }

  /** The app's API apps, oldest first, without their secrets. */
  async listApiApps(streamId: string): Promise<ApiAppListed[]> {
    const clientIds = await this.store.smembers(storeKeys.appApiApps(streamId));
    const found = await Promise.all(
      clientIds.map(async (clientId) => ({
        clientId,
        h: await this.store.hgetall(storeKeys.apiApp(clientId)),
      })),
    );
    return found
      .filter(({ h }) => h.streamId === streamId)
      .map(({ clientId, h }) => ({
        clientId,
        name: h.name ?? '',
        scopes: JSON.parse(h.scopes ?? '[]') as string[],
        createdOn: h.createdOn ?? '',
      }))
      .sort((a, b) => (a.createdOn < b.createdOn ? -1 : a.createdOn > b.createdOn ? 1 : 0));
  }

  /** Deletes an API app: its record first (its tokens are refused from then on), then its place in the app's list. */
  async deleteApiApp(streamId: string, clientId: string): Promise<void> {
    await this.store.del([storeKeys.apiApp(clientId)]);
    await this.store.atomic([{ op: 'srem', key: storeKeys.appApiApps(streamId), member: clientId }]);
  }

  /**
   * Records an API key: first its place in the index of keys (id → hash), then the record the
   * authenticator looks up by hash. A failure between the two leaves an index entry without a
   * record, which the list leaves out and a delete removes; never a working key that is not listed.
   */
  async createApiKey(
    hash: string,
    rec: { id: string; name: string; scopes: string[]; createdOn: string },
  ): Promise<void> {
    await this.store.hset(storeKeys.apiKeyIndex(), { [rec.id]: hash });
    await this.store.hset(storeKeys.apiKeyByHash(hash), {
      id: rec.id,
      name: rec.name,
      scopes: JSON.stringify(rec.scopes),
      createdOn: rec.createdOn,
    });
  }

  /** Every listed API key (never the key itself, nor its hash), oldest first. */
  async listApiKeys(): Promise<Array<{ id: string; name: string; scopes: string[]; createdOn: string }>> {
    const index = Object.entries(await this.store.hgetall(storeKeys.apiKeyIndex()));
    const records = await this.store.hgetallMany(index.map(([, hash]) => storeKeys.apiKeyByHash(hash)));
    return records
      .filter((r, i) => r.id === index[i]![0])
      .map((r) => ({
        id: r.id!,
        name: r.name ?? '',
        scopes: JSON.parse(r.scopes ?? '[]') as string[],
        createdOn: r.createdOn ?? '',
      }))
      .sort((a, b) => a.createdOn.localeCompare(b.createdOn) || a.id.localeCompare(b.id));
  }

  /** Deletes an API key by id: its record first (the key is refused from then on), then its index entry; false when unknown. */
  async deleteApiKey(id: string): Promise<boolean> {
    const hash = await this.store.hget(storeKeys.apiKeyIndex(), id);
    if (hash === null) return false;
    await this.store.del([storeKeys.apiKeyByHash(hash)]);
    await this.store.atomic([{ op: 'hdel', key: storeKeys.apiKeyIndex(), fields: [id] }]);
    return true;
  }

  async findApiKey(hash: string): Promise<{ id: string; scopes: string[] } | null> {
    const h = await this.store.hgetall(storeKeys.apiKeyByHash(hash));
    return h.id ? { id: h.id, scopes: JSON.parse(h.scopes ?? '[]') as string[] } : null;
  }
}
