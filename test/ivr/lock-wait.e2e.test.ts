/**
 * A request that finds its call locked by another waits for the store's notice of the release, not
 * by polling every 20-25 ms (issue 39, item 3): held for 400 ms, the lock is tried a couple of times,
 * not twenty, and the request is answered by its own turn once the lock is released.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRedisStore, redisAvailable, testPrefix } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall } from '../helpers/ivr-call.js';
import { countedStore, MemoryStore, storeKeys, type Store } from '../../src/store/index.js';

const setups = [
  { name: 'memory', available: true, store: async (): Promise<Store> => new MemoryStore(testPrefix()) },
  {
    name: 'redis',
    available: redisAvailable(),
    store: async (): Promise<Store> => makeRedisStore(testPrefix()),
  },
];

for (const setup of setups) {
  describe.runIf(setup.available)(`waiting for a call's lock [${setup.name}]`, () => {
    let inner: Store;
    let gw: RunningGateway;
    let app: IvrApp;
    const calls = new Map<string, number>();
    beforeAll(async () => {
      inner = await setup.store();
      gw = await startGateway({
        store: countedStore(inner, (op) => calls.set(op, (calls.get(op) ?? 0) + 1)),
        config: { turnDeadlineMs: 10_000 },
      });
      app = await setupIvrApp(gw);
    }, 60_000);
    afterAll(async () => {
      await gw.docs.validateAll();
      await gw.close();
      await inner.close();
    });

    it('when another holder keeps the lock for a while, then the turn waits for its release without polling and answers', async () => {
      const call = new IvrCall(gw, app.webhookUrl);
      await call.start();
      const lock = storeKeys.callLock(app.streamId, call.callId);
      expect(await inner.set(lock, 'someone-else', { ttlMs: 5_000, nx: true })).toBe(true);
      const before = calls.get('lockAndRead') ?? 0;
      const answered = call.say('I want to book a table');
      await new Promise((r) => setTimeout(r, 400));
      expect(await inner.releaseLock(lock, 'someone-else')).toBe(true);
      await answered;
      expect(call.last).not.toContain('<form id="wait">');
      expect(call.turn).toBe('2');
      // polling every 20 ms would have tried the lock about twenty times in 400 ms
      expect((calls.get('lockAndRead') ?? 0) - before).toBeLessThanOrEqual(3);
    });
  });
}
