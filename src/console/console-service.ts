/**
 * Console sign-in: the admin token is exchanged for a session (a random id in an httpOnly cookie)
 * that expires after CONSOLE_SESSION_TTL_S or when the operator signs out. Failed sign-ins are
 * limited per client address (10 a minute, then refused for a minute).
 */
import { AppError, isConsoleSessionId, isoNow, randomSecret, safeEqual, type ConsoleSessionLookup, type RateLimiter, type RateLimiterFactory } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { ConsoleRepository } from './console-repository.js';

export class ConsoleService implements ConsoleSessionLookup {
  private readonly repo: ConsoleRepository;
  private readonly failures: RateLimiter;

  constructor(
    store: Store,
    private readonly opts: { adminToken: string; ttlS: number; rateLimiters: RateLimiterFactory },
  ) {
    this.repo = new ConsoleRepository(store);
    this.failures = opts.rateLimiters({ name: 'console-sign-in-failures', points: 10, durationS: 60, blockDurationS: 60 });
  }

  get ttlS(): number {
    return this.opts.ttlS;
  }

  async signIn(token: string, clientIp: string): Promise<{ sessionId: string; expiresAt: string }> {
    const gate = await this.failures.peek(clientIp);
    if (!gate.allowed) throw AppError.rateLimited(gate.msBeforeNext / 1000);
    if (!safeEqual(token.trim(), this.opts.adminToken)) {
      const r = await this.failures.consume(clientIp);
      if (!r.allowed) throw AppError.rateLimited(r.msBeforeNext / 1000);
      throw AppError.unauthorized('Invalid admin token');
    }
    const sessionId = randomSecret(32);
    const expiresAt = new Date(Date.now() + this.opts.ttlS * 1000).toISOString();
    await this.repo.save(sessionId, { createdOn: isoNow(), expiresAt }, this.opts.ttlS * 1000);
    return { sessionId, expiresAt };
  }

  async isActive(sessionId: string): Promise<boolean> {
    return (await this.expiryOf(sessionId)) !== null;
  }

  /** When the session ends, or null when it is unknown or over. */
  async expiryOf(sessionId: string): Promise<string | null> {
    if (!isConsoleSessionId(sessionId)) return null;
    const rec = await this.repo.find(sessionId);
    return rec && Date.parse(rec.expiresAt) > Date.now() ? rec.expiresAt : null;
  }

  async signOut(sessionId: string): Promise<void> {
    await this.repo.remove(sessionId);
  }
}
