/**
 * The memory store's bound on calls (MEMORY_STORE_MAX_CALLS). A call counts from the step that
 * creates its session (`lockAndRead` with `create`). When a new call would pass the bound, the
 * calls that finished longest ago are dropped first (session and lock); when every kept call is
 * live, the new call is refused with 503 `at_capacity`. The store knows no session format, so
 * whether a stored session is finished is a predicate its owner gives (wired in main.ts).
 */
import { AppError } from '../platform/index.js';

export interface CallCapOptions {
  maxCalls: number;
  /** Whether a stored session value belongs to a call that has ended. */
  isFinished: (value: string) => boolean;
}

export class MemoryCallCap {
  /** Session key → lock key of every counted call, oldest first. */
  private readonly calls = new Map<string, string>();
  /** Session keys of finished calls, in the order they finished. */
  private readonly finished = new Set<string>();

  constructor(private readonly opts: CallCapOptions) {}

  /** A session value was written (a commit): notes whether its call has finished. */
  written(sessionKey: string, value: string): void {
    if (!this.calls.has(sessionKey)) return;
    if (!this.opts.isFinished(value)) this.finished.delete(sessionKey);
    else if (!this.finished.has(sessionKey)) this.finished.add(sessionKey);
  }

  /**
   * Counts a new call. Answers the keys to delete to make room (finished calls, oldest first);
   * throws 503 `at_capacity` when only live calls remain. `live` tells whether a key still exists.
   */
  admit(sessionKey: string, lockKey: string, live: (key: string) => boolean): string[] {
    this.forget(sessionKey);
    if (this.calls.size >= this.opts.maxCalls) this.prune(live);
    const drop: string[] = [];
    while (this.calls.size >= this.opts.maxCalls) {
      const victim = this.oldestIdleFinished(live);
      if (victim === undefined) throw AppError.atCapacity('Too many calls in progress; try again shortly');
      drop.push(victim, this.calls.get(victim)!);
      this.forget(victim);
    }
    this.calls.set(sessionKey, lockKey);
    return drop;
  }

  /** Calls counted now (tests and metrics). */
  get size(): number {
    return this.calls.size;
  }

  private forget(sessionKey: string): void {
    this.calls.delete(sessionKey);
    this.finished.delete(sessionKey);
  }

  /** Forgets calls whose session is gone (expired, or deleted). */
  private prune(live: (key: string) => boolean): void {
    for (const sessionKey of [...this.calls.keys()]) if (!live(sessionKey)) this.forget(sessionKey);
  }

  /** The finished call that finished first and is not being answered right now (lock free). */
  private oldestIdleFinished(live: (key: string) => boolean): string | undefined {
    for (const sessionKey of this.finished) if (!live(this.calls.get(sessionKey)!)) return sessionKey;
    return undefined;
  }
}
