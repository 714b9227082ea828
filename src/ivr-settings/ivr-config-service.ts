/** Operator use cases of the IVR channel and settings, and the cached reads the webhook needs. */
import { createHash, randomInt } from 'node:crypto';
import {
  AppError,
  CREDENTIALS,
  isoNow,
  newId,
  randomSecret,
  signHs256,
  verifyHs256,
  type Sealer,
  type TokenRefusalReason,
} from '../platform/index.js';
import { storeKeys, type Store, type WriteOp } from '../store/index.js';
import { VersionLog } from '../admin/index.js';
import { IvrRepository, type IvrChannel } from './ivr-repository.js';
import { defaultIvrSettings, ivrSettingsSchema, type IvrSettings } from './ivr-settings-schema.js';
import { applySettingsPatch, settingsProblems } from './settings-patch.js';
import { readThrough, type IvrCaches } from './ivr-caches.js';

/** How often a guarded settings write is made again when other writes keep coming first. */
const SETTINGS_WRITE_ATTEMPTS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The version id of a settings document: a hash of its JSON, as stored. */
export const settingsVersionOf = (settings: IvrSettings): string =>
  createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16);

/** Who saved settings and why: each stored settings document is a version with its author and note. */
export interface SettingsSave {
  savedBy: string;
  note?: string;
  /** false: keep it as a draft (calls keep the published settings; the sandbox may use it). Default true. */
  publish?: boolean;
}

/** The channel as the operator API answers it; `clientSecret` only where it is created or rotated. */
export interface ChannelAnswer {
  enabled: boolean;
  webhookUrl: string;
  clientId: string;
  allowTokensWithoutExpiry: boolean;
  clientSecret?: string;
}

/** A webhook token the operator minted, and the webhook URL that carries it. */
export interface MintedToken {
  token: string;
  expiresAt: string;
  webhookUrl: string;
}

/** What a channel edit changes: on/off, and whether tokens without `exp` pass. */
export interface ChannelChange {
  enabled: boolean;
  allowTokensWithoutExpiry?: boolean;
}

export class IvrConfigService {
  readonly repo: IvrRepository;
  /** Every settings document stored (published or draft), kept as versions. */
  readonly versions: VersionLog;

  constructor(
    store: Store,
    sealer: Sealer,
    private readonly caches: Pick<IvrCaches, 'channels' | 'settings' | 'apps' | 'verifiedTokens'>,
  ) {
    this.repo = new IvrRepository(store, sealer);
    this.versions = new VersionLog(store, {
      index: storeKeys.ivrSettingsVersions,
      doc: storeKeys.ivrSettingsVersion,
    });
  }

  static webhookUrl(baseUrl: string, streamId: string): string {
    return `${baseUrl}/ivr/hooks/${encodeURIComponent(streamId)}`;
  }

  /**
   * Enables (creating the client id and secret once) or disables the channel. The secret is in the
   * answer only when this call created it; later it is shown only by `rotateSecret`.
   */
  async setChannel(streamId: string, change: ChannelChange, baseUrl: string): Promise<ChannelAnswer> {
    const { enabled } = change;
    const answer = (ch: IvrChannel): ChannelAnswer => ({
      enabled: ch.enabled,
      webhookUrl: IvrConfigService.webhookUrl(baseUrl, streamId),
      clientId: ch.clientId,
      allowTokensWithoutExpiry: ch.allowTokensWithoutExpiry,
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await this.repo.findChannel(streamId);
      if (existing) {
        const allow = change.allowTokensWithoutExpiry ?? existing.allowTokensWithoutExpiry;
        if (
          !(await this.repo.updateChannel(streamId, existing.clientId, {
            enabled,
            allowTokensWithoutExpiry: allow,
          }))
        )
          continue;
        this.caches.channels.delete(streamId);
        return answer({ ...existing, enabled, allowTokensWithoutExpiry: allow });
      }
      const ch: IvrChannel = {
        streamId,
        enabled,
        clientId: newId('cs'),
        secret: randomSecret(32),
        createdOn: isoNow(),
        allowTokensWithoutExpiry: change.allowTokensWithoutExpiry ?? false,
      };
      if (!(await this.repo.createChannel(ch))) continue;
      this.caches.channels.delete(streamId);
      return { ...answer(ch), clientSecret: ch.secret };
    }
    throw AppError.conflict('The IVR channel changed meanwhile; try again');
  }

  /**
   * Replaces the channel's secret and shows the new one (the only other time it is shown). Tokens
   * signed with the old secret are refused from then on, including those of calls under way.
   */
  async rotateSecret(streamId: string, baseUrl: string): Promise<Required<ChannelAnswer>> {
    const existing = await this.repo.findChannel(streamId);
    if (!existing) throw AppError.notFound('IVR channel is not set up for this app');
    const secret = randomSecret(32);
    if (!(await this.repo.updateChannel(streamId, existing.clientId, { secret })))
      throw AppError.conflict('The IVR channel changed meanwhile; try again');
    this.caches.channels.delete(streamId);
    return {
      enabled: existing.enabled,
      webhookUrl: IvrConfigService.webhookUrl(baseUrl, streamId),
      clientId: existing.clientId,
      allowTokensWithoutExpiry: existing.allowTokensWithoutExpiry,
      clientSecret: secret,
    };
  }

  /**
   * Mints a webhook token for a VXML platform: HS256 with the channel's secret, claim `appId` = the
   * channel's client id, `sub` = the caller identity the platform stands for, and an expiry.
   */
  async mintToken(
    streamId: string,
    opts: { sub: string; expiresInS: number },
    baseUrl: string,
  ): Promise<MintedToken> {
    const ch = await this.repo.findChannel(streamId);
    if (!ch) throw AppError.notFound('IVR channel is not set up for this app');
    const token = signHs256(
      { appId: ch.clientId, sub: opts.sub, isAnonymous: true },
      ch.secret,
      opts.expiresInS,
    );
    const url = new URL(IvrConfigService.webhookUrl(baseUrl, streamId));
    url.searchParams.set('token', token);
    return {
      token,
      expiresAt: new Date(Date.now() + opts.expiresInS * 1000).toISOString(),
      webhookUrl: url.toString(),
    };
  }

  /** A step of deleting the app: its channel's client id lookup (kept outside the app's keys) and the caches. */
  async forgetApp(streamId: string): Promise<void> {
    const clientId = await this.repo.clientIdOf(streamId);
    if (clientId) await this.repo.dropClientLookup(clientId, streamId);
    this.caches.channels.delete(streamId);
    this.caches.settings.delete(streamId);
    this.caches.settings.delete(draftKeyOf(streamId));
    this.caches.apps.delete(streamId);
  }

  channel(streamId: string): Promise<IvrChannel | null> {
    return readThrough(this.caches.channels, streamId, () => this.repo.findChannel(streamId));
  }

  /** The effective settings: the stored ones, or the defaults (calls enabled) when none were saved. */
  getSettings(streamId: string): Promise<IvrSettings> {
    return readThrough(
      this.caches.settings,
      streamId,
      async () => (await this.repo.findSettings(streamId)) ?? defaultIvrSettings(),
    );
  }

  /** The settings a sandbox call runs with when its app says the sandbox uses drafts: the draft, else the effective settings. */
  draftSettings(streamId: string): Promise<IvrSettings> {
    return readThrough(
      this.caches.settings,
      draftKeyOf(streamId),
      async () => (await this.repo.findDraft(streamId))?.settings ?? (await this.getSettings(streamId)),
    );
  }

  /**
   * Replaces the whole settings: what `input` leaves out takes its default, except `enabled`, which
   * only an explicit value changes (a PUT that leaves it out keeps the app on or off as it was).
   * Written guarded on the settings read, so a concurrent switch-off is never undone.
   */
  async putSettings(
    streamId: string,
    input: unknown,
    save: SettingsSave = { savedBy: 'admin-token' },
  ): Promise<IvrSettings> {
    const parsed = ivrSettingsSchema.safeParse(input);
    if (!parsed.success) throw AppError.validation(settingsProblems(parsed.error));
    const given = typeof input === 'object' && input !== null && Object.hasOwn(input, 'enabled');
    if (save.publish === false) {
      const settings = given
        ? parsed.data
        : { ...parsed.data, enabled: (await this.getSettings(streamId)).enabled };
      await this.saveDraft(streamId, settings, save);
      return settings;
    }
    // a whole new document published supersedes the draft
    const { after } = await this.changeSettings(
      streamId,
      (current) => (given ? parsed.data : { ...parsed.data, enabled: current.enabled }),
      { ...save, dropDraft: true },
    );
    return after;
  }

  /** Applies a JSON merge patch to the effective settings, atomically; the settings it made. */
  async patchSettings(
    streamId: string,
    patch: unknown,
    save: SettingsSave = { savedBy: 'admin-token' },
  ): Promise<IvrSettings> {
    const { after } = await this.changeSettings(
      streamId,
      (current) => {
        const r = applySettingsPatch(current, patch);
        if (!r.ok) throw AppError.validation(r.problems);
        return r.settings;
      },
      save,
    );
    return after;
  }

  /** Stores settings as the draft (a version of its own); the published ones stay. */
  private async saveDraft(streamId: string, settings: IvrSettings, save: SettingsSave): Promise<void> {
    const version = settingsVersionOf(settings);
    const rec = {
      version,
      savedAt: isoNow(),
      savedBy: save.savedBy,
      ...(save.note ? { note: save.note } : {}),
    };
    await this.repo.saveDraft(
      streamId,
      version,
      settings,
      this.versions.recordOps(streamId, rec, JSON.stringify(settings)),
    );
    this.caches.settings.delete(draftKeyOf(streamId));
    await this.trimVersions(streamId);
  }

  /**
   * Publishes a saved version of the settings (an earlier one: the rollback): calls use it at once.
   * The draft ends when it is the version published. 404 when the version is not kept.
   */
  async publishSettings(streamId: string, version: string): Promise<IvrSettings> {
    const saved = await this.versions.get(streamId, version);
    if (!saved)
      throw AppError.notFound(
        `The IVR settings have no saved version ${version} (never saved, or past the retention)`,
      );
    const settings = ivrSettingsSchema.parse(JSON.parse(saved.json));
    const draft = await this.repo.findDraft(streamId);
    const { after } = await this.changeSettings(streamId, () => settings, {
      savedBy: saved.savedBy,
      record: false,
      dropDraft: draft?.version === version,
    });
    return after;
  }

  /** The published version's id and the draft's (null: none). */
  async settingsPointers(streamId: string): Promise<{ published: string | null; draft: string | null }> {
    const [raw, draft] = await Promise.all([
      this.repo.findSettingsRaw(streamId),
      this.repo.findDraft(streamId),
    ]);
    const published = IvrRepository.readSettings(raw);
    return { published: published ? settingsVersionOf(published) : null, draft: draft?.version ?? null };
  }

  /** Settings stored before versions were kept become a version when they are replaced, so that they can be rolled back to. */
  private async unversioned(streamId: string, raw: string | null): Promise<WriteOp[]> {
    const stored = IvrRepository.readSettings(raw);
    if (!stored) return [];
    const version = settingsVersionOf(stored);
    if (await this.versions.get(streamId, version)) return [];
    const rec = {
      version,
      savedAt: new Date(Date.now() - 1).toISOString(),
      savedBy: 'unknown (saved before versions were kept)',
    };
    return this.versions.recordOps(streamId, rec, JSON.stringify(stored));
  }

  private async trimVersions(streamId: string): Promise<void> {
    const { published, draft } = await this.settingsPointers(streamId);
    await this.versions.trim(streamId, [published, draft]);
  }

  /**
   * Stores what `change` makes of the effective settings (null: leave them), without a
   * read-modify-write race: a write guarded on the settings read, made again from a fresh read
   * when another write came first. `stored` tells `change` whether the app had saved settings.
   */
  async changeSettings(
    streamId: string,
    change: (current: IvrSettings, stored: boolean) => IvrSettings | null,
    save: SettingsSave & { record?: boolean; dropDraft?: boolean } = { savedBy: 'service' },
  ): Promise<{ before: IvrSettings; after: IvrSettings }> {
    for (let attempt = 0; attempt < SETTINGS_WRITE_ATTEMPTS; attempt++) {
      if (attempt > 0) await sleep(randomInt(1, 5 + attempt * 5));
      const raw = await this.repo.findSettingsRaw(streamId);
      const before = IvrRepository.readSettings(raw) ?? defaultIvrSettings();
      const after = change(before, raw !== null);
      if (after === null) return { before, after: before };
      // the document stored is a version (with its author and note), in the same step
      const rec = {
        version: settingsVersionOf(after),
        savedAt: isoNow(),
        savedBy: save.savedBy,
        ...(save.note ? { note: save.note } : {}),
      };
      const also: WriteOp[] = [
        ...(await this.unversioned(streamId, raw)),
        ...(save.record === false ? [] : this.versions.recordOps(streamId, rec, JSON.stringify(after))),
        ...(save.dropDraft ? [IvrRepository.dropDraftOp(streamId)] : []),
      ];
      if (await this.repo.replaceSettingsIf(streamId, raw, after, also)) {
        this.caches.settings.delete(streamId);
        this.caches.settings.delete(draftKeyOf(streamId));
        if (save.record !== false) await this.trimVersions(streamId);
        return { before, after };
      }
    }
    throw AppError.conflict('The IVR settings changed meanwhile; try again');
  }

  /**
   * Verifies a webhook token: HS256, signed with this app's channel secret, channel enabled. A
   * refusal names the `token` query parameter it expected (WWW-Authenticate).
   */
  async verifyToken(
    streamId: string,
    token: string | undefined,
  ): Promise<{ sub?: string; claims: Record<string, unknown> }> {
    try {
      return await this.checkToken(streamId, token);
    } catch (err) {
      throw err instanceof AppError ? err.expecting(CREDENTIALS.webhookToken) : err;
    }
  }

  private async checkToken(
    streamId: string,
    token: string | undefined,
  ): Promise<{ sub?: string; claims: Record<string, unknown> }> {
    if (!token)
      throw AppError.unauthorized('Missing token').because('missing_token' satisfies TokenRefusalReason);
    const ch = await this.channel(streamId);
    if (!ch) throw AppError.notFound('IVR channel is not set up for this app');
    const verified = await verifyHs256(
      token,
      async (clientId) => (clientId === ch.clientId ? ch.secret : null),
      this.caches.verifiedTokens,
    );
    if (verified.claims.exp === undefined && !ch.allowTokensWithoutExpiry) {
      throw AppError.unauthorized(
        'Invalid SDK credentials: the token has no expiry (exp); mint one with POST /api/admin/apps/{streamId}/channels/ivr/tokens',
      ).because('missing_claim' satisfies TokenRefusalReason);
    }
    if (!ch.enabled) throw AppError.notFound('IVR channel is disabled');
    return { sub: verified.sub, claims: verified.claims };
  }
}

/** The settings cache's key of an app's draft settings. */
const draftKeyOf = (streamId: string): string => `${streamId}#draft`;
