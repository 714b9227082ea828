/**
 * Waiters for the release of locks, by key: what a store's `waitForRelease` waits on. The in-process
 * stores (memory, SQLite) wake them where they release a lock; the Redis store wakes them on the
 * message its release scripts publish on the lock's channel.
 */
export class LockWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Registers a waiter for `key`: `released` resolves true on a wake, false after `timeoutMs`; call `done` after. */
  add(key: string, timeoutMs: number): { released: Promise<boolean>; done: () => void; first: boolean } {
    let set = this.waiting.get(key);
    const first = !set;
    if (!set) {
      set = new Set();
      this.waiting.set(key, set);
    }
    let timer: NodeJS.Timeout | undefined;
    let wake!: () => void;
    const released = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
    });
    set.add(wake);
    const done = () => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0 && this.waiting.get(key) === set) this.waiting.delete(key);
    };
    return { released, done, first };
  }

  /** Whether anyone waits for `key`. */
  has(key: string): boolean {
    return this.waiting.has(key);
  }

  /** Wakes everyone waiting for `key`. */
  wake(key: string): void {
    const set = this.waiting.get(key);
    if (set) for (const w of [...set]) w();
  }
}
