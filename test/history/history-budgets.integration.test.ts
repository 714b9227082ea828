import { LRUCache } from 'lru-cache';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHistoryComponent, type HistoryComponent } from '../../src/history/index.js';
import { rateLimitersOf, storeKeys, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { D, NOW, newestFirst } from './history-harness.js';
import { ivrCall } from './ivr-call.js';

/** Intersections of several filters are checked entry by entry: the work per request is bounded. */
describeEachStore('conversation history bounded intersections', 'api', (factory) => {
  let store: Store;
  let small: HistoryComponent;
  const botId = 'st-00000000-0000-4000-8000-00000000b0d9';
  const user = { userId: 'u-busy', from: '+15550900' };
  // 30 calls (one session each) of one user; every third carries the tag
  const calls = Array.from({ length: 30 }, (_, k) =>
    ivrCall({
      botId,
      ...user,
      callId: `call-b${k}`,
      start: NOW - 5 * D + k * 60_000,
      turns: [{ caller: `q${k}`, bot: `a${k}`, ...(k % 3 === 0 ? { tags: { topic: 'billing' } } : {}) }],
    }),
  );
  const tagged = newestFirst(calls.filter((_, k) => k % 3 === 0).flat());

  beforeAll(async () => {
    store = await factory.make();
    // the recorder writes only for an app that exists
    await store.set(
      storeKeys.appRecord(botId),
      JSON.stringify({
        streamId: botId,
        name: 'budgets',
        language: 'en',
        createdOn: new Date(NOW).toISOString(),
      }),
    );
    small = createHistoryComponent({
      sessionMetas: new LRUCache({ max: 1_000 }),
      store,
      apps: { findApp: async () => null },
      rateLimiters: rateLimitersOf(store),
      now: () => NOW,
      budgets: { scanBudget: 12, countBudget: 24 },
    });
    const full = createHistoryComponent({
      sessionMetas: new LRUCache({ max: 1_000 }),
      store,
      apps: { findApp: async () => null },
      rateLimiters: rateLimitersOf(store),
      now: () => NOW,
    });
    await full.recorder.record(calls.flat());
  });
  afterAll(() => store.close());

  it('when the driver fits the count budget, then total is exact', async () => {
    const big = createHistoryComponent({
      sessionMetas: new LRUCache({ max: 1_000 }),
      store,
      apps: { findApp: async () => null },
      rateLimiters: rateLimitersOf(store),
      now: () => NOW,
    });
    const r = await big.service.getMessages(
      botId,
      'v1',
      { userId: user.userId, channelType: 'ivr', tags: { topic: 'billing' }, limit: 100 },
      'body',
    );
    expect(r.total).toBe(20);
    expect(r.messages.map((m) => m._id)).toEqual(tagged);
    expect(r.icon).toBe('');
  });

  it('when the intersection is sparse, then a page stops at the scan budget with moreAvailable and paging with msgId goes on', async () => {
    const seen: string[] = [];
    let r = await small.service.getMessages(
      botId,
      'v1',
      { userId: user.userId, channelType: 'ivr', callId: 'call-b0', limit: 5 },
      'body',
    );
    expect(r.messages.map((m) => m._id)).toEqual(newestFirst(calls[0]!));
    r = await small.service.getMessages(
      botId,
      'v1',
      { userId: user.from, channelType: 'ivr', tags: { topic: 'billing' }, limit: 100, forward: true },
      'body',
    );
    seen.push(...r.messages.map((m) => m._id));
    for (let guard = 0; r.moreAvailable && guard < 50; guard++) {
      r = await small.service.getMessages(
        botId,
        'v1',
        {
          userId: user.from,
          channelType: 'ivr',
          tags: { topic: 'billing' },
          limit: 100,
          forward: true,
          msgId: seen[seen.length - 1]!,
          direction: 1,
        },
        'body',
      );
      seen.push(...r.messages.map((m) => m._id));
    }
    expect(seen).toEqual([...tagged].reverse());
  });

  it('when the driver is larger than the count budget, then total is extrapolated from the checked part', async () => {
    // another user's 30 older billing messages: the tag index (50) drives and exceeds the budget (24)
    const other = Array.from({ length: 15 }, (_, k) =>
      ivrCall({
        botId,
        userId: 'u-other',
        from: '+15550901',
        callId: `call-o${k}`,
        start: NOW - 6 * D + k * 60_000,
        turns: [{ caller: 'x', bot: 'y', tags: { topic: 'billing' } }],
      }),
    );
    const full = createHistoryComponent({
      sessionMetas: new LRUCache({ max: 1_000 }),
      store,
      apps: { findApp: async () => null },
      rateLimiters: rateLimitersOf(store),
      now: () => NOW,
    });
    await full.recorder.record(other.flat());
    const r = await small.service.getMessages(
      botId,
      'v1',
      { userId: user.userId, channelType: 'ivr', tags: { topic: 'billing' }, limit: 1 },
      'body',
    );
    // newest 24 of the tag index: u-busy's 20 match, 4 do not -> 20/24 x 50
    expect(r.total).toBe(Math.round((20 / 24) * 50));
    const exact = await full.service.getMessages(
      botId,
      'v1',
      { userId: user.userId, channelType: 'ivr', tags: { topic: 'billing' }, limit: 1 },
      'body',
    );
    expect(exact.total).toBe(20);
  });

  it('when skip needs a walk longer than the scan budget, then 400 tells to narrow the request', async () => {
    await expect(
      small.service.getMessages(
        botId,
        'v1',
        { userId: user.userId, channelType: 'ivr', tags: { topic: 'billing' }, skip: 9 },
        'body',
      ),
    ).rejects.toMatchObject({ status: 400 });
  });
});
