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
 * key per number, address or caller, never one per request. An operator lists the number's,
 * its callers' and the addresses' lockouts, and clears them (`lockouts`, `clear`).
 */
import {
  AppError,
  type Metrics,
  type RateLimiter,
  type RateLimiterFactory,
  type RateLimitRule,
} from '../platform/index.js';

export type Window = Omit<RateLimitRule, 'name'>;

export interface SandboxLimits {
  entry: Window;
  caller: Window;
  address: Window;
  numberSlow: Window;
  numberLock: Window;
}

/** The defaults; `lockoutS` (ten minutes by default) sets the caller and address windows. */
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

/** Who is refused, why and until when: the sandbox number, a client address (every number), or one caller of the number. */
export interface Lockout {
  kind: 'number' | 'address' | 'caller';
  state: LoginRefusal;
  phoneNumber?: string;
  address?: string;
  from?: string;
  /** Wrong entries counted when the lockout began (or so far in the window, for a slowed number). */
  wrongEntries: number;
  until: string;
}

export interface LockoutFilter {
  kind?: Lockout['kind'];
  address?: string;
  from?: string;
}

/** How many keys of each limiter a listing looks at (a flood of addresses must not make it endless). */
const MAX_LISTED = 1000;

export class SandboxLoginLimits {
  private readonly entry: RateLimiter;
  private readonly caller: RateLimiter;
  private readonly address: RateLimiter;
  private readonly numberSlow: RateLimiter;
  private readonly numberLock: RateLimiter;

  constructor(
    limiters: RateLimiterFactory,
    limits: SandboxLimits,
    private readonly metrics: Metrics,
  ) {
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
    const refusal: LoginRefusal | null =
      !caller.allowed || !byAddress.allowed || !lock.allowed ? 'locked' : slow.allowed ? null : 'slowed';
    if (refusal) this.metrics.rateLimited.inc({ limiter: `sandbox-${refusal}` });
    return refusal;
  }

  /**
   * Every lockout that refuses logins to `phoneNumber` now: the number slowed or locked, its callers
   * locked, and the client addresses locked (an address lock holds for every number).
   * `truncated` when there were more keys than a listing looks at.
   */
  async lockouts(phoneNumber: string): Promise<{ lockouts: Lockout[]; truncated: boolean }> {
    const now = Date.now();
    const until = (ms: number) => new Date(now + ms).toISOString();
    const [slow, lock, callers, addresses] = await Promise.all([
      this.numberSlow.peek(phoneNumber),
      this.numberLock.peek(phoneNumber),
      this.caller.list(callerPrefix(phoneNumber), MAX_LISTED),
      this.address.list('', MAX_LISTED),
    ]);
    const out: Lockout[] = [];
    const number = !lock.allowed
      ? { state: 'locked' as const, r: lock }
      : !slow.allowed
        ? { state: 'slowed' as const, r: slow }
        : null;
    if (number)
      out.push({
        kind: 'number',
        state: number.state,
        phoneNumber,
        wrongEntries: number.r.consumed,
        until: until(number.r.msBeforeNext),
      });
    for (const e of callers.entries) {
      const who = parseCallerKey(e.key, phoneNumber);
      if (!e.allowed && who)
        out.push({
          kind: 'caller',
          state: 'locked',
          phoneNumber,
          ...who,
          wrongEntries: e.consumed,
          until: until(e.msBeforeNext),
        });
    }
    for (const e of addresses.entries) {
      if (!e.allowed)
        out.push({
          kind: 'address',
          state: 'locked',
          address: e.key,
          wrongEntries: e.consumed,
          until: until(e.msBeforeNext),
        });
    }
    return { lockouts: out, truncated: callers.truncated || addresses.truncated };
  }

  /** Ends the lockouts of `phoneNumber` that match `filter` (all without one): their counts start again from zero. */
  async clear(phoneNumber: string, filter: LockoutFilter): Promise<Lockout[]> {
    const { lockouts } = await this.lockouts(phoneNumber);
    const chosen = lockouts.filter(
      (l) =>
        (!filter.kind || l.kind === filter.kind) &&
        (!filter.address || l.address === filter.address) &&
        (!filter.from || l.from === filter.from),
    );
    for (const l of chosen) {
      if (l.kind === 'number')
        await Promise.all([this.numberSlow.reset(phoneNumber), this.numberLock.reset(phoneNumber)]);
      else if (l.kind === 'caller')
        await this.caller.reset(callerKey(phoneNumber, l.address ?? '', l.from ?? ''));
      else await this.address.reset(addressKey(l.address ?? ''));
    }
    return chosen;
  }
}

const addressKey = (address: string): string => address || 'unknown';
/**
 * One key per (number, address, from), readable so an operator sees who is locked: the number,
 * then the address and `from` (whatever the caller sent) URI-encoded, so neither can reach into
 * the other's part or carry a character a key should not.
 */
const callerKey = (phoneNumber: string, address: string, from: string): string =>
  `${callerPrefix(phoneNumber)}${encodeURIComponent(address)}|${encodeURIComponent(from)}`;
const callerPrefix = (phoneNumber: string): string => `${phoneNumber}|`;

function parseCallerKey(key: string, phoneNumber: string): { address: string; from: string } | null {
  const [address, from, ...rest] = key.slice(callerPrefix(phoneNumber).length).split('|');
  if (address === undefined || from === undefined || rest.length) return null;
  try {
    return { address: decodeURIComponent(address), from: decodeURIComponent(from) };
  } catch {
    return null;
  }
}
