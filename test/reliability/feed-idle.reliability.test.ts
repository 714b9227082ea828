/**
 * An idle live feed on Redis for 60 s (issue 38, item 3 of the findings): a heartbeat every 15 s,
 * no read of the feed fails (the reader's socket timeout outlasts its 15 s blocking read; it was
 * 5 s, and idle feeds failed at ~17 s), and a turn after the minute still comes through. The minute
 * is waited for in full, with no load: a reliability suite, so that it runs beside the others
 * rather than among the load suites, which run one at a time (the feeds under load:
 * feed-load.load.test.ts).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeRedisStore, testPrefix } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall } from '../helpers/ivr-call.js';
import type { RedisStore } from '../../src/store/index.js';
import { SseClient } from '../inspector/sse-client.js';
import { countReaders } from './count-readers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!inject('redisAvailable'))('an idle live feed on Redis', () => {
  let store: RedisStore;
  let counts: ReturnType<typeof countReaders>;
  let gw: RunningGateway;
  let measured: IvrApp;

  beforeAll(async () => {
    store = await makeRedisStore(testPrefix());
    counts = countReaders(store);
    gw = await startGateway({ store });
    measured = await setupIvrApp(gw, { name: 'measured' });
  }, 60_000);
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when a feed stays idle on Redis for 60 s, then a heartbeat comes every 15 s, no read fails, and a turn after it still comes', async () => {
    const failedBefore = counts.failedReads;
    const feed = await SseClient.open(`${gw.url}/api/admin/apps/${measured.streamId}/calls/feed`, {
      Authorization: `Bearer ${gw.config.adminToken}`,
    });
    expect(feed.status).toBe(200);
    const opened = performance.now();
    const first = feed.next(); // reads in the background, keeping the comments as they come
    first.catch(() => undefined); // judged below
    await sleep(61_000);
    const beats = feed.comments.filter((c) => c.text === 'heartbeat').map((c) => c.at - opened);
    expect(beats).toHaveLength(4);
    expect(counts.errors.slice(failedBefore)).toEqual([]);
    expect(gw.log.text()).not.toMatch(/could not read the feed/);

    const call = new IvrCall(gw, measured.webhookUrl);
    await call.start();
    const event = await first;
    expect(JSON.parse(event.data)).toMatchObject({ callId: call.callId });
    feed.close();
  }, 90_000);
});
