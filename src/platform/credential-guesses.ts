/**
 * The limit on guesses at the admin token, per client address, shared by the Bearer header of the
 * operator API and the console's sign-in (one count for both). Each attempt's answer is decided by
 * the count, in one atomic step per window of the store's rate limiter taken in arrival order: a
 * wrong guess is counted, a right token only reads the count. So no guess of a parallel burst is
 * answered past the limit, a limited address is refused the right token too, and a script's
 * parallel requests with the right token never use the window up (docs/security.md).
 *
 * Three windows, each with a block that outlasts it, make the refusal grow with further attempts:
 * 10 in a minute block the address for a minute, 30 in an hour for 15 minutes, 100 in a day for
 * six hours (attempts made while refused count in the longer windows). Addresses in
 * ADMIN_TRUSTED_NETWORKS are not limited: the owner's way in while a neighbour behind the same
 * address is refused (docs/security.md). IPv6 addresses are counted per /64, what one client holds.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { AppError } from './app-error.js';
import type { Metrics } from './metrics.js';
import type { RateLimiter, RateLimiterFactory, RateLimitRule } from './rate-limiter.js';

export const ADMIN_GUESS_WINDOWS: Array<Omit<RateLimitRule, 'name'> & { suffix: string }> = [
  { suffix: 'min', points: 10, durationS: 60, blockDurationS: 60 },
  { suffix: 'hour', points: 30, durationS: 3600, blockDurationS: 900 },
  { suffix: 'day', points: 100, durationS: 86_400, blockDurationS: 6 * 3600 },
];

export interface CredentialGuesses {
  /**
   * Counts an attempt from `address`, then (if the count let it through) runs `isRight`; a right
   * credential gives its points back. Throws 429 with Retry-After, without calling `isRight`, when
   * the address is limited.
   */
  attempt(address: string, isRight: () => boolean): Promise<boolean>;
  /**
   * The same for a check that takes time (a password hash): refused with 429 before `check` runs
   * when any window of `keys` is already used up; then `check` runs and the attempt is counted on
   * every key (read only when right), and the answer is decided by that count, so no attempt of a
   * parallel burst past the limit learns whether it was right. `keys` are client addresses (counted
   * as `attempt` counts them) or other names (an account's, to limit guesses spread over addresses).
   */
  attemptSlow(keys: string[], check: () => Promise<boolean>): Promise<boolean>;
}

export interface CredentialGuessesOptions {
  rateLimiters: RateLimiterFactory;
  metrics?: Metrics;
  /** CIDR subnets (10.0.0.0/8, fd00::/8, 192.0.2.7/32) whose addresses are never limited. */
  trustedNetworks?: string[];
  /** The windows (tests use smaller ones); ADMIN_GUESS_WINDOWS by default. */
  windows?: typeof ADMIN_GUESS_WINDOWS;
  /** What is guessed (`admin` by default; `password` for accounts): the limiters' names and the metric's label. */
  credential?: string;
}

/** `::ffff:1.2.3.4` as 1.2.3.4; an IPv6 address as its /64; others as they are. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** A BlockList of CIDR subnets; throws on a malformed entry (the config validates them first). */
export function subnetList(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net = '', bits] = cidr.split('/');
    const family = isIPv4(net) ? 'ipv4' : 'ipv6';
    list.addSubnet(net, bits === undefined ? (family === 'ipv4' ? 32 : 128) : Number(bits), family);
  }
  return list;
}

/** Whether `address` (as Express gives it, perhaps IPv4-mapped) is in `list`. */
export function inSubnets(list: BlockList, address: string): boolean {
  const key = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
  if (isIPv4(key)) return list.check(key, 'ipv4');
  return isIPv6(key) ? list.check(key, 'ipv6') : false;
}

export function createCredentialGuesses(opts: CredentialGuessesOptions): CredentialGuesses {
  const credential = opts.credential ?? 'admin';
  const windows: RateLimiter[] = (opts.windows ?? ADMIN_GUESS_WINDOWS).map(({ suffix, ...rule }) =>
    opts.rateLimiters({ name: `${credential}-guesses-${suffix}`, ...rule }),
  );
  const trusted = opts.trustedNetworks?.length ? subnetList(opts.trustedNetworks) : null;
  const refuse = (refused: Array<{ msBeforeNext: number }>): never => {
    opts.metrics?.refusedGuesses.inc({ credential });
    throw AppError.rateLimited(Math.max(...refused.map((c) => c.msBeforeNext)) / 1000);
  };
  const counted = (keys: string[]): string[] =>
    keys.filter((k) => !(trusted && inSubnets(trusted, k))).map(addressKey);
  return {
    async attemptSlow(keys, check) {
      const names = counted(keys);
      const before = (await Promise.all(names.flatMap((k) => windows.map((w) => w.peek(k))))).filter(
        (c) => !c.allowed,
      );
      if (before.length) refuse(before);
      const right = await check();
      const after = (
        await Promise.all(names.flatMap((k) => windows.map((w) => (right ? w.peek(k) : w.consume(k)))))
      ).filter((c) => !c.allowed);
      if (after.length) refuse(after);
      return right;
    },
    async attempt(address, isRight) {
      if (trusted && inSubnets(trusted, address)) return isRight();
      const key = addressKey(address);
      // The comparison is constant-time and synchronous, so its result is known before this request
      // reaches the store; what the answer says is decided only by the count, taken in one atomic
      // step per window in the order the attempts arrive: a wrong guess is counted, a right token
      // reads the count. A right token never uses up the window, so a script's parallel requests
      // are not refused, and once wrong guesses have passed the limit the right token is refused too.
      const right = isRight();
      const counted = await Promise.all(windows.map((w) => (right ? w.peek(key) : w.consume(key))));
      const refused = counted.filter((c) => !c.allowed);
      if (refused.length) refuse(refused);
      return right;
    },
  };
}
