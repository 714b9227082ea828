/** The IVR channel (client id and sealed secret) and IVR settings of each app, in the store. */
import type { Sealer } from '../platform/index.js';
import { storeKeys, type Store, type WriteOp } from '../store/index.js';
import { ivrSettingsSchema, type IvrSettings } from './ivr-settings-schema.js';

export interface IvrChannel {
  streamId: string;
  enabled: boolean;
  clientId: string;
  secret: string;
  createdOn: string;
  /** Webhook tokens without an `exp` claim are refused unless the operator allows them here. */
  allowTokensWithoutExpiry: boolean;
}

export class IvrRepository {
  constructor(
    private readonly store: Store,
    private readonly sealer: Sealer,
  ) {}

  async findChannel(streamId: string): Promise<IvrChannel | null> {
    const h = await this.store.hgetall(storeKeys.ivrChannel(streamId));
    if (!h.clientId || !h.secret) return null;
    return {
      streamId,
      enabled: h.enabled === 'true',
      clientId: h.clientId,
      secret: this.sealer.open(h.secret),
      createdOn: h.createdOn ?? '',
      allowTokensWithoutExpiry: h.allowTokensWithoutExpiry === 'true',
    };
  }

  /**
   * Creates the channel unless one exists (a concurrent first enable keeps the first one's secret);
   * false when one existed.
   */
  async createChannel(ch: IvrChannel): Promise<boolean> {
    const key = storeKeys.ivrChannel(ch.streamId);
    const fields = {
      enabled: String(ch.enabled),
      clientId: ch.clientId,
      secret: this.sealer.seal(ch.secret),
      createdOn: ch.createdOn,
      allowTokensWithoutExpiry: String(ch.allowTokensWithoutExpiry),
    };
    if (
      !(
        await this.store.atomic([{ op: 'hset', key, fields }], [{ key, hashField: 'clientId', absent: true }])
      ).ok
    )
      return false;
    await this.store.set(storeKeys.ivrChannelByClient(ch.clientId), ch.streamId);
    return true;
  }

  /** Changes one field set of an existing channel (its client id unchanged), leaving the others; false when it is not there. */
  async updateChannel(
    streamId: string,
    clientId: string,
    change: { enabled?: boolean; secret?: string; allowTokensWithoutExpiry?: boolean },
  ): Promise<boolean> {
    const key = storeKeys.ivrChannel(streamId);
    const fields: Record<string, string> = {};
    if (change.enabled !== undefined) fields.enabled = String(change.enabled);
    if (change.allowTokensWithoutExpiry !== undefined)
      fields.allowTokensWithoutExpiry = String(change.allowTokensWithoutExpiry);
    if (change.secret !== undefined) fields.secret = this.sealer.seal(change.secret);
    return (
      await this.store.atomic(
        [{ op: 'hset', key, fields }],
        [{ key, hashField: 'clientId', equals: clientId }],
      )
    ).ok;
  }

  /** The channel's client id, without opening the sealed secret (a deletion must not depend on MASTER_KEY). */
  async clientIdOf(streamId: string): Promise<string | null> {
    return this.store.hget(storeKeys.ivrChannel(streamId), 'clientId');
  }

  /** Drops the client id lookup of the app's channel (only while it still points to this app). */
  async dropClientLookup(clientId: string, streamId: string): Promise<void> {
    const key = storeKeys.ivrChannelByClient(clientId);
    await this.store.atomic([{ op: 'del', key }], [{ key, equals: streamId }]);
  }

  async streamIdForClient(clientId: string): Promise<string | null> {
    return this.store.get(storeKeys.ivrChannelByClient(clientId));
  }

  async findSettings(streamId: string): Promise<IvrSettings | null> {
    return IvrRepository.readSettings(await this.findSettingsRaw(streamId));
  }

  /** The stored settings as stored (the version a guarded write compares with); null when none. */
  findSettingsRaw(streamId: string): Promise<string | null> {
    return this.store.get(storeKeys.ivrSettings(streamId));
  }

  static readSettings(raw: string | null): IvrSettings | null {
    return raw ? ivrSettingsSchema.parse(JSON.parse(raw)) : null;
  }

  async saveSettings(streamId: string, settings: IvrSettings): Promise<void> {
    await this.store.set(storeKeys.ivrSettings(streamId), JSON.stringify(settings));
  }

  /**
   * Stores the settings (and `also`: their version's record, a draft dropped) only while the stored
   * ones are still `expectedRaw` (null: none stored), in one step; false when they changed meanwhile
   * (nothing written).
   */
  async replaceSettingsIf(
    streamId: string,
    expectedRaw: string | null,
    settings: IvrSettings,
    also: WriteOp[] = [],
  ): Promise<boolean> {
    const key = storeKeys.ivrSettings(streamId);
    const guard = expectedRaw === null ? { key, absent: true as const } : { key, equals: expectedRaw };
    return (await this.store.atomic([{ op: 'set', key, value: JSON.stringify(settings) }, ...also], [guard]))
      .ok;
  }

  /** The draft settings (saved, not published) and their version; null when there is none. */
  async findDraft(streamId: string): Promise<{ version: string; settings: IvrSettings } | null> {
    const raw = await this.store.get(storeKeys.ivrSettingsDraft(streamId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as { version: string; settings: unknown };
    return { version: draft.version, settings: ivrSettingsSchema.parse(draft.settings) };
  }

  /** Stores the draft settings (and `also`: their version's record) in one step. */
  async saveDraft(
    streamId: string,
    version: string,
    settings: IvrSettings,
    also: WriteOp[] = [],
  ): Promise<void> {
    await this.store.atomic([
      { op: 'set', key: storeKeys.ivrSettingsDraft(streamId), value: JSON.stringify({ version, settings }) },
      ...also,
    ]);
  }

  /** The write that drops the draft (made with a publish). */
  static dropDraftOp(streamId: string): WriteOp {
    return { op: 'del', key: storeKeys.ivrSettingsDraft(streamId) };
  }
}
