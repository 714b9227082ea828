import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { storeKeys, type Store } from '../../src/store/index.js';

/**
 * A stream's cap (XADD MAXLEN ~): about `maxLen` entries stay, the newest. Redis trims whole nodes
 * of its radix tree (100 entries each by default) and the embedded store counts a stream once per
 * hundredth of its cap, so neither keeps exactly `maxLen`; the memory store does.
 */
describeEachStore('stream cap', 'store', (factory) => {
  let store: Store;
  beforeEach(async () => {
    store = await factory.make();
  });
  afterEach(async () => {
    await store.close();
  });

  it('when a stream gets far more entries than its cap, then about the cap stay, the newest, in order', async () => {
    const key = storeKeys.callFeed('st-cap');
    const maxLen = 300;
    const added = 1_000;
    for (let i = 1; i <= added; i++)
      await store.atomic([{ op: 'xadd', key, fields: { e: String(i) }, maxLen }]);
    const reader = await store.streamReader();
    try {
      const kept = (await reader.read(key, '0-0', 10 * added, 10)).map((x) => Number(x.fields.e));
      expect(kept.length).toBeGreaterThanOrEqual(maxLen);
      expect(kept.length).toBeLessThanOrEqual(maxLen + 100);
      const newest = Array.from({ length: kept.length }, (_, i) => added - kept.length + 1 + i);
      expect(kept).toEqual(newest);
    } finally {
      await reader.close();
    }
  });

  it('when a stream is trimmed, then its last id still names its newest entry', async () => {
    const key = storeKeys.callFeed('st-cap-id');
    for (let i = 1; i <= 50; i++)
      await store.atomic([{ op: 'xadd', key, fields: { e: String(i) }, maxLen: 10 }]);
    const reader = await store.streamReader();
    try {
      const kept = await reader.read(key, '0-0', 1_000, 10);
      expect(kept.at(-1)?.fields.e).toBe('50');
      expect(await store.lastStreamId(key)).toBe(kept.at(-1)?.id);
      expect(kept.length).toBeGreaterThanOrEqual(10);
    } finally {
      await reader.close();
    }
  });
});
