/**
 * The test sandbox: provisioning (number, PIN, secret, pre-filled settings) and the call flow a
 * VXML browser's number routing drives: PIN and secret by DTMF (constant-time checks), a line from
 * the app's pool, then the app's webhook as a subdialog with a token minted for the call. The
 * unauthenticated entry stores nothing until the PIN and secret are right (sealed attempt ids,
 * sandbox-attempts.ts) and answers every number alike, so numbers cannot be told apart; entries and
 * wrong PINs are limited per address, number and caller (sandbox-login-limits.ts).
 */
import { randomInt, randomUUID } from 'node:crypto';
import {
  AppError,
  randomDigits,
  safeEqual,
  signHs256,
  type Config,
  type Metrics,
  type RateLimiterFactory,
  type Sealer,
} from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';
import {
  sandboxRequiredSettings,
  settingChanges,
  type IvrConfigService,
  type IvrSettings,
  type SettingChange,
} from '../ivr-settings/index.js';
import { SandboxRepository } from './sandbox-repository.js';
import { SandboxAttempts } from './sandbox-attempts.js';
import {
  SandboxLoginLimits,
  sandboxLimits,
  type Lockout,
  type LockoutFilter,
  type LoginRefusal,
  type SandboxLimits,
} from './sandbox-login-limits.js';

const ATTEMPT_TTL_MS = 10 * 60_000;

export type SandboxStep =
  | { kind: 'login'; callId: string; from: string; attempt: string; retry: boolean }
  | { kind: 'connect'; streamId: string; callId: string; from: string; token: string }
  | { kind: 'announce'; text: string; reason: 'busy' | 'locked' | 'slowed' | 'disabled' };

/** The sandbox as the operator API answers it; `pin` and `secret` only where they are created or rotated. */
export interface SandboxAnswer {
  enabled: boolean;
  phoneNumber: string;
  pin?: string;
  secret?: string;
  maxConcurrentCalls: number;
}

/** What enabling the sandbox changed besides the sandbox: every IVR setting it set, and the channel. */
export interface SandboxProvisioned extends SandboxAnswer {
  settingsChanged: SettingChange[];
  channelSwitchedOn: boolean;
}

const changedMeanwhile = (): AppError => AppError.conflict('The test sandbox changed meanwhile; try again');

export interface SandboxOptions {
  /** Lockout window and duration after five wrong entries of a caller, or 20 of an address (default 600 s). */
  lockoutS?: number;
  /** Other limits of the entry and of wrong PINs (defaults in sandbox-login-limits.ts). */
  limits?: Partial<SandboxLimits>;
  /** How long a line stays taken without a hangup (default: the session TTL). */
  lineTtlMs?: number;
}

/** Who is calling: the client address (behind a trusted proxy, the one it saw) and the `from` sent. */
export interface SandboxCaller {
  address: string;
  from: string;
}

export class SandboxService {
  readonly repo: SandboxRepository;
  private readonly limits: SandboxLoginLimits;
  private readonly attempts: SandboxAttempts;
  private readonly lineTtlMs: number;

  constructor(
    private readonly store: Store,
    sealer: Sealer,
    private readonly ivr: IvrConfigService,
    private readonly config: Config,
    private readonly metrics: Metrics,
    limiters: RateLimiterFactory,
    options: SandboxOptions = {},
  ) {
    this.repo = new SandboxRepository(store, sealer);
    this.lineTtlMs = options.lineTtlMs ?? config.sessionTtlS * 1000;
    this.limits = new SandboxLoginLimits(limiters, sandboxLimits(options.lockoutS, options.limits), metrics);
    this.attempts = new SandboxAttempts(sealer, ATTEMPT_TTL_MS);
  }

  /** A step of deleting the app: frees its sandbox number (kept outside the app's keys) for other apps. */
  async forgetApp(streamId: string): Promise<void> {
    const phoneNumber = await this.repo.phoneNumberOf(streamId);
    if (phoneNumber) await this.repo.releaseNumber(phoneNumber, streamId);
  }

  /**
   * Enables (a number, PIN and secret, the required settings, the channel) or disables the app's
   * sandbox. The PIN and secret are in the answer only when this call created them; later they are
   * shown only by `rotateSecret`.
   */
  async provision(
    streamId: string,
    input: { enabled: boolean; maxConcurrentCalls?: number },
    baseUrl: string,
  ): Promise<SandboxProvisioned> {
    this.assertAvailable();
    const existing = await this.repo.find(streamId);
    if (!input.enabled) {
      if (existing) {
        await this.repo.releaseNumber(existing.phoneNumber, streamId);
        if (!(await this.repo.update(streamId, existing.phoneNumber, { enabled: false })))
          throw changedMeanwhile();
      }
      return {
        enabled: false,
        phoneNumber: '',
        maxConcurrentCalls: existing?.maxConcurrentCalls ?? 0,
        settingsChanged: [],
        channelSwitchedOn: false,
      };
    }
    const phoneNumber =
      existing && (await this.repo.claimNumber(existing.phoneNumber, streamId))
        ? existing.phoneNumber
        : await this.newNumber(streamId);
    const maxConcurrentCalls = input.maxConcurrentCalls ?? existing?.maxConcurrentCalls ?? 2;
    let created: { pin: string; secret: string } | null = null;
    if (existing) {
      if (
        !(await this.repo.update(streamId, existing.phoneNumber, {
          enabled: true,
          phoneNumber,
          maxConcurrentCalls,
        }))
      )
        throw changedMeanwhile();
    } else {
      created = { pin: randomDigits(6), secret: randomDigits(8) };
      if (
        !(await this.repo.create({ streamId, enabled: true, phoneNumber, ...created, maxConcurrentCalls }))
      ) {
        await this.repo.releaseNumber(phoneNumber, streamId);
        throw changedMeanwhile();
      }
    }
    const settingsChanged = await this.prefillSettings(streamId);
    const channel = await this.ivr.repo.findChannel(streamId);
    const channelSwitchedOn = !channel?.enabled;
    if (channelSwitchedOn) await this.ivr.setChannel(streamId, { enabled: true }, baseUrl);
    return {
      enabled: true,
      phoneNumber,
      ...(created ?? {}),
      maxConcurrentCalls,
      settingsChanged,
      channelSwitchedOn,
    };
  }

  /** Replaces the PIN and secret and shows the new ones (the only other time they are shown). */
  async rotateSecret(streamId: string): Promise<Required<SandboxAnswer>> {
    this.assertAvailable();
    const existing = await this.repo.find(streamId);
    if (!existing) throw AppError.notFound('The test sandbox is not set up for this app');
    const fresh = { pin: randomDigits(6), secret: randomDigits(8) };
    if (!(await this.repo.update(streamId, existing.phoneNumber, fresh))) throw changedMeanwhile();
    return {
      enabled: existing.enabled,
      phoneNumber: existing.enabled ? existing.phoneNumber : '',
      ...fresh,
      maxConcurrentCalls: existing.maxConcurrentCalls,
    };
  }

  private assertAvailable(): void {
    if (this.config.deployment === 'onprem') {
      throw AppError.businessRule(
        'The test sandbox is not available on on-premise installations (DEPLOYMENT=onprem)',
      );
    }
  }

  private async newNumber(streamId: string): Promise<string> {
    const prefix = this.config.sandboxNumberPrefix;
    const digits = Math.max(4, 11 - (prefix.length - 1));
    for (let i = 0; i < 20; i++) {
      const candidate =
        `${prefix}${String(randomInt(0, 10 ** Math.min(digits, 9))).padStart(Math.min(digits, 9), '0')}`.slice(
          0,
          16,
        );
      if (await this.repo.claimNumber(candidate, streamId)) return candidate;
    }
    throw AppError.conflict('Could not allocate a unique sandbox number; try again');
  }

  /**
   * Pre-fills the settings the sandbox needs when the app never saved settings or saved them not
   * enabled, in one guarded write; answers every setting that changed.
   */
  private async prefillSettings(streamId: string): Promise<SettingChange[]> {
    const { before, after } = await this.ivr.changeSettings(
      streamId,
      (current, stored): IvrSettings | null =>
        stored && current.enabled
          ? null
          : {
              ...current,
              ...sandboxRequiredSettings,
              transcription: { ...sandboxRequiredSettings.transcription },
            },
      { savedBy: 'test sandbox setup', note: 'the settings the test sandbox needs' },
    );
    return settingChanges(before, after);
  }

  /**
   * First fetch of a call to a sandbox number: the login document, the same for every number
   * (known or not), and nothing stored. 429 past the entry limit of the caller's address.
   */
  async enter(phoneNumber: string, caller: SandboxCaller, callId?: string): Promise<SandboxStep> {
    await this.limits.enter(caller.address);
    const refusal = await this.limits.refusal(phoneNumber, caller.address, caller.from);
    if (refusal) return refusedStep(refusal);
    return this.loginStep(phoneNumber, callId ?? `sb-${randomUUID()}`, caller.from, false);
  }

  /** The caller's PIN and secret. Only when both are right is anything but a failure count stored. */
  async login(
    phoneNumber: string,
    caller: SandboxCaller,
    input: { callId: string; attempt: string; pin: string; secret: string },
  ): Promise<SandboxStep> {
    const { address, from } = caller;
    const refusal = await this.limits.refusal(phoneNumber, address, from);
    if (refusal) return refusedStep(refusal);
    const attempt = this.attempts.read(input.attempt, phoneNumber);
    const streamId = await this.repo.appForNumber(phoneNumber);
    const found = streamId ? await this.repo.find(streamId) : null;
    const rec = found?.enabled ? found : null;
    // an unknown number is compared too (and always fails), so it answers as a known one does
    const pinOk = safeEqual(input.pin, rec?.pin ?? '');
    const secretOk = safeEqual(input.secret, rec?.secret ?? '');
    const fresh =
      rec !== null &&
      attempt !== null &&
      pinOk &&
      secretOk &&
      (await this.repo.claimAttempt(attempt.id, attempt.expiresAt - Date.now()));
    if (!fresh || !streamId || !rec) {
      const now = await this.limits.failed(phoneNumber, address, from);
      if (now) return refusedStep(now);
      return this.loginStep(phoneNumber, input.callId, from, true);
    }
    const line = await this.store.acquireSlot(
      storeKeys.sandboxLines(streamId),
      input.callId,
      Date.now() + this.lineTtlMs,
      rec.maxConcurrentCalls,
    );
    this.metrics.sandboxLinesInUse.set({ app: streamId }, line.inUse);
    if (!line.acquired)
      return { kind: 'announce', text: 'All lines are busy. Please call again later.', reason: 'busy' };
    const channel = await this.ivr.channel(streamId);
    if (!channel) return { kind: 'announce', text: 'This test line is switched off.', reason: 'disabled' };
    // the claim tells the webhook a tester calls: the app's settings say whether the draft answers
    const token = signHs256(
      { appId: channel.clientId, sub: from, isAnonymous: true, sandbox: true },
      channel.secret,
      this.config.sessionTtlS,
    );
    return { kind: 'connect', streamId, callId: input.callId, from, token };
  }

  /** Frees a call's line (end of conversation, hangup); lines also expire with the session TTL. */
  async release(streamId: string, callId: string): Promise<void> {
    // every call ends here; only one that held a line (a sandbox call) changes the gauge
    if (await this.store.releaseSlot(storeKeys.sandboxLines(streamId), callId)) {
      this.metrics.sandboxLinesInUse.set(
        { app: streamId },
        await this.store.countSlots(storeKeys.sandboxLines(streamId)),
      );
    }
  }

  /** The lockouts that refuse logins to the app's sandbox number now (sandbox-login-limits.ts). */
  async lockouts(
    streamId: string,
  ): Promise<{ phoneNumber: string; lockouts: Lockout[]; truncated: boolean }> {
    const phoneNumber = await this.numberOf(streamId);
    return { phoneNumber, ...(await this.limits.lockouts(phoneNumber)) };
  }

  /** Ends the lockouts of the app's sandbox number that match the filter; answers those it ended. */
  async clearLockouts(
    streamId: string,
    filter: LockoutFilter,
  ): Promise<{ phoneNumber: string; cleared: Lockout[] }> {
    const phoneNumber = await this.numberOf(streamId);
    return { phoneNumber, cleared: await this.limits.clear(phoneNumber, filter) };
  }

  private async numberOf(streamId: string): Promise<string> {
    this.assertAvailable();
    const phoneNumber = await this.repo.phoneNumberOf(streamId);
    if (!phoneNumber) throw AppError.notFound('The test sandbox is not set up for this app');
    return phoneNumber;
  }

  linesInUse(streamId: string): Promise<number> {
    return this.store.countSlots(storeKeys.sandboxLines(streamId));
  }

  private loginStep(phoneNumber: string, callId: string, from: string, retry: boolean): SandboxStep {
    return { kind: 'login', callId, from, attempt: this.attempts.issue(phoneNumber), retry };
  }
}

function refusedStep(refusal: LoginRefusal): SandboxStep {
  return refusal === 'slowed'
    ? {
        kind: 'announce',
        text: 'Too many wrong entries on this line. Please wait a minute and call again. Goodbye.',
        reason: 'slowed',
      }
    : {
        kind: 'announce',
        text: 'Too many wrong entries. This line is locked for now. Please call again later. Goodbye.',
        reason: 'locked',
      };
}
