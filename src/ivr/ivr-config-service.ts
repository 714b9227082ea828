/** Operator use cases of the IVR channel and settings, and the cached reads the webhook needs. */
import { randomInt } from 'node:crypto';
import { AppError, CREDENTIALS, isoNow, newId, randomSecret, signHs256, verifyHs256, type Sealer, type TokenRefusalReason } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { IvrRepository, type IvrChannel } from './ivr-repository.js';
import { defaultIvrSettings, ivrSettingsSchema, type IvrSettings } from './ivr-settings-schema.js';
import { applySettingsPatch, settingsProblems } from './settings-patch.js';
import { readThrough, type IvrCaches } from './ivr-caches.js';

/** How often a guarded settings write is made again when other writes keep coming first. */
const SETTINGS_WRITE_ATTEMPTS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

  constructor(
    store: Store,
    sealer: Sealer,
    private readonly caches: Pick<IvrCaches, 'channels' | 'settings' | 'apps' | 'verifiedTokens'>,
  ) {
    this.repo = new IvrRepository(store, sealer);
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
      enabled: ch.enabled, webhookUrl: IvrConfigService.webhookUrl(baseUrl, streamId), clientId: ch.clientId, allowTokensWithoutExpiry: ch.allowTokensWithoutExpiry,
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await this.repo.findChannel(streamId);
      if (existing) {
        const allow = change.allowTokensWithoutExpiry ?? existing.allowTokensWithoutExpiry;
        if (!(await this.repo.updateChannel(streamId, existing.clientId, { enabled, allowTokensWithoutExpiry: allow }))) continue;
        this.caches.channels.delete(streamId);
        return answer({ ...existing, enabled, allowTokensWithoutExpiry: allow });
      }
      const ch: IvrChannel = {
        streamId, enabled, clientId: newId('cs'), secret: randomSecret(32), createdOn: isoNow(), allowTokensWithoutExpiry: change.allowTokensWithoutExpiry ?? false,
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
    if (!(await this.repo.updateChannel(streamId, existing.clientId, { secret }))) throw AppError.conflict('The IVR channel changed meanwhile; try again');
    this.caches.channels.delete(streamId);
    return {
      enabled: existing.enabled, webhookUrl: IvrConfigService.webhookUrl(baseUrl, streamId), clientId: existing.clientId,
      allowTokensWithoutExpiry: existing.allowTokensWithoutExpiry, clientSecret: secret,
    };
  }

  /**
   * Mints a webhook token for a VXML platform: HS256 with the channel's secret, claim `appId` = the
   * channel's client id, `sub` = the caller identity the platform stands for, and an expiry.
   */
  async mintToken(streamId: string, opts: { sub: string; expiresInS: number }, baseUrl: string): Promise<MintedToken> {
    const ch = await this.repo.findChannel(streamId);
    if (!ch) throw AppError.notFound('IVR channel is not set up for this app');
    const token = signHs256({ appId: ch.clientId, sub: opts.sub, isAnonymous: true }, ch.secret, opts.expiresInS);
    const url = new URL(IvrConfigService.webhookUrl(baseUrl, streamId));
    url.searchParams.set('token', token);
    return { token, expiresAt: new Date(Date.now() + opts.expiresInS * 1000).toISOString(), webhookUrl: url.toString() };
  }

  /** A step of deleting the app: its channel's client id lookup (kept outside the app's keys) and the caches. */
  async forgetApp(streamId: string): Promise<void> {
    const clientId = await this.repo.clientIdOf(streamId);
    if (clientId) await this.repo.dropClientLookup(clientId, streamId);
    this.caches.channels.delete(streamId);
    this.caches.settings.delete(streamId);
    this.caches.apps.delete(streamId);
  }

  channel(streamId: string): Promise<IvrChannel | null> {
    return readThrough(this.caches.channels, streamId, () => this.repo.findChannel(streamId));
  }

  /** The effective settings: the stored ones, or the defaults (calls enabled) when none were saved. */
  getSettings(streamId: string): Promise<IvrSettings> {
    return readThrough(this.caches.settings, streamId, async () => (await this.repo.findSettings(streamId)) ?? defaultIvrSettings());
  }

  /**
   * Replaces the whole settings: what `input` leaves out takes its default, except `enabled`, which
   * only an explicit value changes (a PUT that leaves it out keeps the app on or off as it was).
   * Written guarded on the settings read, so a concurrent switch-off is never undone.
   */
  async putSettings(streamId: string, input: unknown): Promise<IvrSettings> {
    const parsed = ivrSettingsSchema.safeParse(input);
    if (!parsed.success) throw AppError.validation(settingsProblems(parsed.error));
    const given = typeof input === 'object' && input !== null && Object.hasOwn(input, 'enabled');
    const { after } = await this.changeSettings(streamId, (current) => (given ? parsed.data : { ...parsed.data, enabled: current.enabled }));
    return after;
  }

  /** Applies a JSON merge patch to the effective settings, atomically; the settings it made. */
  async patchSettings(streamId: string, patch: unknown): Promise<IvrSettings> {
    const { after } = await this.changeSettings(streamId, (current) => {
      const r = applySettingsPatch(current, patch);
      if (!r.ok) throw AppError.validation(r.problems);
      return r.settings;
    });
    return after;
  }

  /**
   * Stores what `change` makes of the effective settings (null: leave them), without a
   * read-modify-write race: a write guarded on the settings read, made again from a fresh read
   * when another write came first. `stored` tells `change` whether the app had saved settings.
   */
  async changeSettings(streamId: string, change: (current: IvrSettings, stored: boolean) => IvrSettings | null): Promise<{ before: IvrSettings; after: IvrSettings }> {
    for (let attempt = 0; attempt < SETTINGS_WRITE_ATTEMPTS; attempt++) {
      if (attempt > 0) await sleep(randomInt(1, 5 + attempt * 5));
      const raw = await this.repo.findSettingsRaw(streamId);
      const before = IvrRepository.readSettings(raw) ?? defaultIvrSettings();
      const after = change(before, raw !== null);
      if (after === null) return { before, after: before };
      if (await this.repo.replaceSettingsIf(streamId, raw, after)) {
        this.caches.settings.delete(streamId);
        return { before, after };
      }
    }
    throw AppError.conflict('The IVR settings changed meanwhile; try again');
  }

  /**
   * Verifies a webhook token: HS256, signed with this app's channel secret, channel enabled. A
   * refusal names the `token` query parameter it expected (WWW-Authenticate).
   */
  async verifyToken(streamId: string, token: string | undefined): Promise<{ sub?: string; claims: Record<string, unknown> }> {
    try {
      return await this.checkToken(streamId, token);
    } catch (err) {
      throw err instanceof AppError ? err.expecting(CREDENTIALS.webhookToken) : err;
    }
  }

  private async checkToken(streamId: string, token: string | undefined): Promise<{ sub?: string; claims: Record<string, unknown> }> {
    if (!token) throw AppError.unauthorized('Missing token').because('missing_token' satisfies TokenRefusalReason);
    const ch = await this.channel(streamId);
    if (!ch) throw AppError.notFound('IVR channel is not set up for this app');
    const verified = await verifyHs256(token, async (clientId) => (clientId === ch.clientId ? ch.secret : null), this.caches.verifiedTokens);
    if (verified.claims.exp === undefined && !ch.allowTokensWithoutExpiry) {
      throw AppError.unauthorized('Invalid SDK credentials: the token has no expiry (exp); mint one with POST /api/admin/apps/{streamId}/channels/ivr/tokens')
        .because('missing_claim' satisfies TokenRefusalReason);
    }
    if (!ch.enabled) throw AppError.notFound('IVR channel is disabled');
    return { sub: verified.sub, claims: verified.claims };
  }
}
