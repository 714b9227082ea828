/**
 * The live feed under load and at rest, on Redis (issue 38, items 2 and 3 of the findings):
 * - 500 feeds on one app while its calls take turns: another app's turn p99 stays within 3× of its
 *   baseline taken in the same run, every feed gets the turns, and the feeds hold no Redis
 *   connection each (the readers the store made are counted: one per watched app, one for backlogs).
 * The idle feed (a minute of waiting, no load) is feed-idle.reliability.test.ts: it runs beside
 * the other reliability suites instead of holding up the load suites, which run one at a time.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeRedisStore, testPrefix } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall } from '../helpers/ivr-call.js';
import type { RedisStore } from '../../src/store/index.js';
import { countReaders } from './count-readers.js';

const FEEDS = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)]!;
};

/** Feeds held open by a child process (feed-clients.ts): their reading costs this process nothing. */
async function openFeedsElsewhere(url: string, token: string, count: number) {
  const child = fork(
    fileURLToPath(new URL('./feed-clients.ts', import.meta.url)),
    [url, token, String(count)],
    { execArgv: ['--import', 'tsx'] },
  );
  const ask = <T>(msg?: string): Promise<T> =>
    new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as T));
      child.once('exit', (code) => reject(new Error(`feed clients exited ${code}`)));
      if (msg) child.send(msg);
    });
  const opened = await ask<{ opened: number; statuses: number[] }>();
  return {
    opened,
    turns: async () => (await ask<{ turns: number }>('turns')).turns,
    close: () => child.send('close'),
  };
}

describe.skipIf(!inject('redisAvailable'))('live feeds on Redis', () => {
  let store: RedisStore;
  let counts: ReturnType<typeof countReaders>;
  let gw: RunningGateway;
  let measured: IvrApp;
  let watched: IvrApp;

  beforeAll(async () => {
    store = await makeRedisStore(testPrefix());
    counts = countReaders(store);
    gw = await startGateway({
      store,
      config: {
        abuseLimits: {
          feedsPerSession: FEEDS + 10,
          feedsPerInstance: FEEDS + 10,
          agentUploadsPerMinute: 100,
          trainingQueueMax: 50,
        },
      },
    });
    measured = await setupIvrApp(gw, { name: 'measured' });
    watched = await setupIvrApp(gw, { name: 'watched' });
  }, 60_000);
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  /** Turn times (ms) of `calls` calls of `app`, `turns` answers each, `parallel` at a time. */
  async function turnTimes(app: IvrApp, calls: number, turns: number, parallel: number): Promise<number[]> {
    const times: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < calls) {
        next++;
        const call = new IvrCall(gw, app.webhookUrl);
        let t = performance.now();
        await call.start();
        times.push(performance.now() - t);
        for (let i = 0; i < turns; i++) {
          t = performance.now();
          await call.say(`a table for ${i + 2}`);
          times.push(performance.now() - t);
        }
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return times;
  }

  it(`when ${FEEDS} feeds watch an app taking turns, then another app's turn p99 stays within 3x of its baseline and the feeds share their readers`, async () => {
    /** The measured app's turn times while the watched app takes turns too (in both phases: only the feeds differ). */
    const measure = async () => {
      let watchedTurns = 0;
      let busy = true;
      const traffic = (async () => {
        while (busy) watchedTurns += (await turnTimes(watched, 2, 3, 2)).length;
      })();
      const times = await turnTimes(measured, 30, 4, 5);
      busy = false;
      await traffic;
      return { times, watchedTurns };
    };
    await turnTimes(measured, 4, 3, 4); // warm-up
    const { times: baseline } = await measure();

    const feeds = await openFeedsElsewhere(
      `${gw.url}/api/admin/apps/${watched.streamId}/calls/feed`,
      gw.config.adminToken,
      FEEDS,
    );
    expect(feeds.opened).toEqual({ opened: FEEDS, statuses: [200] });
    expect(counts.open).toBeLessThanOrEqual(2);
    const { times: loaded, watchedTurns } = await measure();

    const ratio = p99(loaded) / p99(baseline);
    console.log(
      `feeds=${FEEDS} baseline p99=${p99(baseline).toFixed(1)} ms, with feeds p99=${p99(loaded).toFixed(1)} ms, ratio ${ratio.toFixed(2)}; watched app turns ${watchedTurns}; readers made ${counts.made}, open ${counts.open}`,
    );
    expect(ratio).toBeLessThanOrEqual(3);
    expect(counts.made).toBeLessThanOrEqual(2);
    // every feed got the watched app's turns (they may trail the last by a moment)
    let fewest = await feeds.turns();
    for (let i = 0; i < 50 && fewest < watchedTurns; i++) {
      await sleep(100);
      fewest = await feeds.turns();
    }
    expect(fewest).toBe(watchedTurns);
    feeds.close();
  }, 240_000);
});
