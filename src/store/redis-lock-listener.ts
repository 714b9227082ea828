/**
 * Waits for a lock's release on Redis: one connection of its own subscribes to the channel of each
 * lock waited for (the release scripts publish on it), and wakes the waiters of that lock. The
 * subscription is made before the lock is looked at again, so no release is missed.
 */
import { LockWaiters } from './lock-waiters.js';
import type { RedisClient } from './redis-client.js';

type Subscriber = ReturnType<RedisClient['duplicate']>;

export class RedisLockListener {
  private readonly waiters = new LockWaiters();
  /** The connection that listens (made on the first wait), and the channels it listens to. */
  private subscriber: Promise<Subscriber> | undefined;
  private readonly listening = new Map<string, Promise<unknown>>();

  constructor(private readonly client: RedisClient) {}

  private listener(): Promise<Subscriber> {
    this.subscriber ??= (async () => {
      const sub = this.client.duplicate();
      sub.on('error', () => undefined); // the commands' own failures are what callers see
      sub.on('message', (channel: string) => this.waiters.wake(channel));
      await sub.connect();
      return sub;
    })();
    return this.subscriber;
  }

  /** True when the lock (its full key, also its channel) was released within `timeoutMs`. */
  async waitForRelease(channel: string, timeoutMs: number): Promise<boolean> {
    const w = this.waiters.add(channel, timeoutMs);
    try {
      const sub = await this.listener();
      let subscribed = this.listening.get(channel);
      if (!subscribed) {
        subscribed = sub.subscribe(channel);
        this.listening.set(channel, subscribed);
      }
      await subscribed;
      // subscribed before this look: a release from now on is a message
      if (!(await this.client.exists(channel))) return true;
      return await w.released;
    } finally {
      w.done();
      if (!this.waiters.has(channel) && this.listening.has(channel)) {
        this.listening.delete(channel);
        void this.subscriber?.then((sub) => sub.unsubscribe(channel)).catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    if (this.subscriber) (await this.subscriber.catch(() => undefined))?.disconnect();
  }
}
