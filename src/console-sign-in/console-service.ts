/**
 * Console sign-in: the admin token is exchanged for a session (a random id in an httpOnly cookie).
 * A session is bound to the credential that made it: its record keeps a fingerprint of the admin
 * token (an HMAC under the master key, so a copy of the store cannot test guesses against it), and
 * every check compares it with the token this instance runs with. So a session ends, on every
 * instance that runs with the new token, as soon as ADMIN_TOKEN changes; and it ends when the
 * operator signs out (its record is removed) or at CONSOLE_SESSION_TTL_S (its record says when, and
 * the store drops it). Attempts at the token are counted per client address before they are
 * compared, with the operator API's Bearer attempts (credential-guesses.ts).
 */
import {
  AppError,
  createCredentialGuesses,
  hmacSha256,
  isConsoleSessionId,
  isoNow,
  randomSecret,
  safeEqual,
  type AccountIdentity,
  type ConsoleSessionLookup,
  type CredentialGuesses,
  type RateLimiterFactory,
  type SessionHolder,
} from '../platform/index.js';
import type { Store } from '../store/index.js';
import { ConsoleRepository } from './console-repository.js';

export interface ConsoleServiceOptions {
  adminToken: string;
  ttlS: number;
  rateLimiters: RateLimiterFactory;
  /** The key of the admin token's fingerprint (the master key); a random one per process without it. */
  credentialKey?: Buffer;
  /** The count of attempts at the admin token, shared with the operator API's Bearer check (one is made without it). */
  guesses?: CredentialGuesses;
  /** Operator accounts (the accounts component): without it only the admin token signs in. */
  accounts?: AccountSessions;
}

/** What the console asks of operator accounts. */
export interface AccountSessions {
  verifySignIn(
    email: string,
    password: string,
    clientIp: string,
  ): Promise<{ identity: AccountIdentity; binding: string }>;
  sessionHolder(accountId: string, binding: string): Promise<AccountIdentity | null>;
}

export class ConsoleService implements ConsoleSessionLookup {
  private readonly repo: ConsoleRepository;
  private readonly guesses: CredentialGuesses;
  private readonly credential: string;

  constructor(
    store: Store,
    private readonly opts: ConsoleServiceOptions,
  ) {
    this.repo = new ConsoleRepository(store);
    this.guesses = opts.guesses ?? createCredentialGuesses({ rateLimiters: opts.rateLimiters });
    this.credential = hmacSha256(
      opts.credentialKey ?? Buffer.from(randomSecret(32)),
      `console-session:${opts.adminToken}`,
    );
  }

  get ttlS(): number {
    return this.opts.ttlS;
  }

  async signIn(
    credentials: { token: string } | { email: string; password: string },
    clientIp: string,
  ): Promise<{ sessionId: string; expiresAt: string; holder: SessionHolder }> {
    let holder: SessionHolder = { kind: 'admin' };
    let credential = this.credential;
    let accountId: string | undefined;
    if ('token' in credentials) {
      const given = credentials.token.trim();
      if (!(await this.guesses.attempt(clientIp, () => safeEqual(given, this.opts.adminToken))))
        throw AppError.unauthorized('Invalid admin token');
    } else {
      if (!this.opts.accounts) throw AppError.unauthorized('Wrong email or password');
      const found = await this.opts.accounts.verifySignIn(credentials.email, credentials.password, clientIp);
      holder = { kind: 'account', ...found.identity };
      credential = found.binding;
      accountId = found.identity.accountId;
    }
    const sessionId = randomSecret(32);
    const expiresAt = new Date(Date.now() + this.opts.ttlS * 1000).toISOString();
    await this.repo.save(
      sessionId,
      { createdOn: isoNow(), expiresAt, credential, ...(accountId ? { accountId } : {}) },
      this.opts.ttlS * 1000,
    );
    return { sessionId, expiresAt, holder };
  }

  /**
   * Whether the session may still act: known, not expired, and made with the admin token this
   * instance runs with (or by an account still active, whose password has not changed since). False
   * after sign-out, at expiry, once the token has changed or the account is disabled; live feeds ask
   * it again at every heartbeat and event.
   */
  async isActive(sessionId: string): Promise<boolean> {
    return (await this.holderOf(sessionId)) !== null;
  }

  /** Who holds the session, or null when it may not act (see isActive). */
  async holderOf(sessionId: string): Promise<SessionHolder | null> {
    return (await this.sessionOf(sessionId))?.holder ?? null;
  }

  /** When the session ends, or null when it is unknown, over, or made with another admin token. */
  async expiryOf(sessionId: string): Promise<string | null> {
    return (await this.sessionOf(sessionId))?.expiresAt ?? null;
  }

  private async sessionOf(sessionId: string): Promise<{ holder: SessionHolder; expiresAt: string } | null> {
    if (!isConsoleSessionId(sessionId)) return null;
    const rec = await this.repo.find(sessionId);
    if (!rec || typeof rec.credential !== 'string' || Date.parse(rec.expiresAt) <= Date.now()) return null;
    if (rec.accountId !== undefined) {
      const identity = this.opts.accounts
        ? await this.opts.accounts.sessionHolder(rec.accountId, rec.credential)
        : null;
      return identity ? { holder: { kind: 'account', ...identity }, expiresAt: rec.expiresAt } : null;
    }
    return safeEqual(rec.credential, this.credential)
      ? { holder: { kind: 'admin' }, expiresAt: rec.expiresAt }
      : null;
  }

  async signOut(sessionId: string): Promise<void> {
    await this.repo.remove(sessionId);
  }
}
