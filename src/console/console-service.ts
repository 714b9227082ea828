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
  AppError, createCredentialGuesses, hmacSha256, isConsoleSessionId, isoNow, randomSecret, safeEqual,
  type ConsoleSessionLookup, type CredentialGuesses, type RateLimiterFactory,
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
    this.credential = hmacSha256(opts.credentialKey ?? Buffer.from(randomSecret(32)), `console-session:${opts.adminToken}`);
  }

  get ttlS(): number {
    return this.opts.ttlS;
  }

  async signIn(token: string, clientIp: string): Promise<{ sessionId: string; expiresAt: string }> {
    const given = token.trim();
    if (!(await this.guesses.attempt(clientIp, () => safeEqual(given, this.opts.adminToken)))) throw AppError.unauthorized('Invalid admin token');
    const sessionId = randomSecret(32);
    const expiresAt = new Date(Date.now() + this.opts.ttlS * 1000).toISOString();
    await this.repo.save(sessionId, { createdOn: isoNow(), expiresAt, credential: this.credential }, this.opts.ttlS * 1000);
    return { sessionId, expiresAt };
  }

  /**
   * Whether the session may still act: known, not expired, and made with the admin token this
   * instance runs with. False after sign-out, at expiry and once the token has changed; live
   * feeds ask it again at every heartbeat and event.
   */
  async isActive(sessionId: string): Promise<boolean> {
    return (await this.expiryOf(sessionId)) !== null;
  }

  /** When the session ends, or null when it is unknown, over, or made with another admin token. */
  async expiryOf(sessionId: string): Promise<string | null> {
    if (!isConsoleSessionId(sessionId)) return null;
    const rec = await this.repo.find(sessionId);
    if (!rec || typeof rec.credential !== 'string' || !safeEqual(rec.credential, this.credential)) return null;
    return Date.parse(rec.expiresAt) > Date.now() ? rec.expiresAt : null;
  }

  async signOut(sessionId: string): Promise<void> {
    await this.repo.remove(sessionId);
  }
}
