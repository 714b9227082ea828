/**
 * The limits of the sandbox's unauthenticated entry and of wrong PINs, never keyed by the
 * caller-supplied `from` alone (anyone can send any `from`):
 * - entry: requests per client address (the address Express gives, behind a trusted proxy the
 *   one it saw); past it 429;
 * - caller: wrong entries per (number, address, from), five in the lockout window lock that caller
 *   out for the window: a stranger who sends a tester's `from` from elsewhere locks only himself;
 * - address: wrong entries per client address, across numbers;
 * - number: wrong entries per sandbox number from anywhere: past a few a minute the number is
 *   slowed (refused until the minute is over), past more in a longer window it is locked for a
 *   short time, and either ends by itself. Many addresses and `from`s cannot guess faster.
 * Only wrong entries count (a login refused by a limit counts no further), and each counter is one
 * key per number, address or caller, never one per request.
 */
import { AppError, sha256, type Metrics, type RateLimiter, type RateLimiterFactory, type RateLimitRule } from '../platform/index.js';

export type Window = Omit<RateLimitRule, 'name'>;

export interface SandboxLimits {
  entry: Window;
  caller: Window;
  address: Window;
  numberSlow: Window;
  numberLock: Window;
}

/** The defaults; `lockoutS` (the contract's ten minutes) sets the caller and address windows. */
export function sandboxLimits(lockoutS = 600, overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  return {
    entry: { points: 60, durationS: 60 },
    // 4 points + block: the fifth wrong entry within the window is refused and blocks for the window
    caller: { points: 4, durationS: lockoutS, blockDurationS: lockoutS },
    address: { points: 20, durationS: lockoutS, blockDurationS: lockoutS },
    numberSlow: { points: 10, durationS: 60 },
    numberLock: { points: 30, durationS: 900, blockDurationS: 300 },
    ...overrides,
  };
}

/** Why a login is not checked now: the caller or its address is locked, or the number slowed or locked. */
export type LoginRefusal = 'locked' | 'slowed';

export class SandboxLoginLimits {
  private readonly entry: RateLimiter;
  private readonly caller: RateLimiter;
  private readonly address: RateLimiter;
  private readonly numberSlow: RateLimiter;
  private readonly numberLock: RateLimiter;

  constructor(limiters: RateLimiterFactory, limits: SandboxLimits, private readonly metrics: Metrics) {
    this.entry = limiters({ name: 'sandbox-entry', ...limits.entry });
    this.caller = limiters({ name: 'sandbox-login', ...limits.caller });
    this.address = limiters({ name: 'sandbox-login-address', ...limits.address });
    this.numberSlow = limiters({ name: 'sandbox-login-number-min', ...limits.numberSlow });
    this.numberLock = limiters({ name: 'sandbox-login-number', ...limits.numberLock });
  }

  /** Counts a call to the entry from `address`; 429 with Retry-After past the limit. */
  async enter(address: string): Promise<void> {
    const r = await this.entry.consume(addressKey(address));
    if (r.allowed) return;
    this.metrics.rateLimited.inc({ limiter: 'sandbox-entry' });
    throw AppError.rateLimited(r.msBeforeNext / 1000);
  }

  /** Whether a login may be checked now; the refusal when not (nothing is counted). */
  async refusal(phoneNumber: string, address: string, from: string): Promise<LoginRefusal | null> {
    const [caller, byAddress, slow, lock] = await Promise.all([
      this.caller.peek(callerKey(phoneNumber, address, from)),
      this.address.peek(addressKey(address)),
      this.numberSlow.peek(phoneNumber),
      this.numberLock.peek(phoneNumber),
    ]);
    if (!caller.allowed || !byAddress.allowed || !lock.allowed) return 'locked';
    return slow.allowed ? null : 'slowed';
  }

  /** Counts a wrong PIN or secret; answers the refusal it led to, if any. */
  async failed(phoneNumber: string, address: string, from: string): Promise<LoginRefusal | null> {
    const [caller, byAddress, slow, lock] = await Promise.all([
      this.caller.consume(callerKey(phoneNumber, address, from)),
      this.address.consume(addressKey(address)),
      this.numberSlow.consume(phoneNumber),
      this.numberLock.consume(phoneNumber),
    ]);
    const refusal: LoginRefusal | null = !caller.allowed || !byAddress.allowed || !lock.allowed ? 'locked' : slow.allowed ? null : 'slowed';
    if (refusal) this.metrics.rateLimited.inc({ limiter: `sandbox-${refusal}` });
    return refusal;
  }
}

const addressKey = (address: string): string => address || 'unknown';
/** One key per (number, address, from), hashed: `from` is whatever the caller sent. */
const callerKey = (phoneNumber: string, address: string, from: string): string => sha256(`${phoneNumber}\u0000${address}\u0000${from}`).slice(0, 32);
