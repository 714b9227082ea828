/**
 * The feed hub's resume, step by step (memory store, the hub on its own): a feed that resumes
 * while another feed of the app is open reads its backlog on the backlog reader; an event that
 * arrives after its last backlog read was made, but before that read's answer came back, reaches
 * it through the live events held for it. Nothing is missed and nothing sent twice.
 */
import { describe, expect, it } from 'vitest';
import { FeedHub } from '../../src/inspector/feed-hub.js';
import { InspectorRepository } from '../../src/inspector/inspector-repository.js';
import { MemoryStore, storeKeys, type StreamEntry, type StreamReader } from '../../src/store/index.js';
import { testPrefix } from '../helpers/test-stores.js';

const STREAM = 'st-00000000-0000-4000-8000-000000000001';

/**
 * A repository whose backlog reads (the non-blocking ones) wait for `release`: after reading
 * (`gated: 'answer'`) or before (`gated: 'read'`).
 */
class GatedRepository extends InspectorRepository {
  gated: false | 'read' | 'answer' = false;
  private waiting: Array<() => void> = [];
  backlogReads = 0;

  override async readFeed(
    reader: StreamReader,
    streamId: string,
    afterId: string,
    blockMs: number,
    count?: number,
  ): Promise<StreamEntry[]> {
    if (blockMs !== 1) return super.readFeed(reader, streamId, afterId, blockMs, count);
    this.backlogReads++;
    if (this.gated === 'read') await new Promise<void>((r) => this.waiting.push(r));
    const entries = await super.readFeed(reader, streamId, afterId, blockMs, count);
    if (this.gated === 'answer') await new Promise<void>((r) => this.waiting.push(r));
    return entries;
  }

  release(): void {
    this.gated = false;
    for (const r of this.waiting.splice(0)) r();
  }
}

async function collect(feed: AsyncGenerator<string>, into: string[]): Promise<void> {
  for await (const chunk of feed) for (const m of chunk.matchAll(/^id: (\S+)$/gm)) into.push(m[1]!);
}

for (const [gate, what] of [
  [
    'answer',
    'after a resuming feed read its backlog but before the answer, then the feed still gets it (held for it), once',
  ],
  [
    'read',
    'after a resuming feed joined but before it read its backlog, then the feed gets it once (read, and held too)',
  ],
] as const) {
  describe('live feed hub: resume while live events come', () => {
    it(`when an event comes ${what}`, async () => {
      const store = new MemoryStore(testPrefix());
      const repo = new GatedRepository(store, {
        ttlMs: 60_000,
        maxTurns: 10,
        documents: false,
        instanceId: 'test',
      });
      const hub = new FeedHub(repo, { perSession: 10, perInstance: 10 }, undefined, undefined, 60_000);
      const add = async (n: number) => {
        const fields = {
          c: 'call-1',
          t: String(n),
          r: String(1_000 + n),
          s: JSON.stringify({ callId: 'call-1', turns: n + 1 }),
        };
        await store.atomic([{ op: 'xadd', key: storeKeys.callFeed(STREAM), fields, maxLen: 1_000 }]);
      };
      const until = async (cond: () => boolean) => {
        for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
        expect(cond()).toBe(true);
      };

      const liveAbort = new AbortController();
      const live: string[] = [];
      const liveDone = collect(
        await hub.feed({ streamId: STREAM, signal: liveAbort.signal, owner: 'a' }),
        live,
      );
      for (let n = 0; n < 3; n++) await add(n);
      await until(() => live.length === 3);

      // the resuming feed's backlog reads answer only on release
      repo.gated = gate;
      const resumedAbort = new AbortController();
      const resumed: string[] = [];
      const resumedDone = collect(
        await hub.feed({ streamId: STREAM, signal: resumedAbort.signal, owner: 'b', lastEventId: live[0]! }),
        resumed,
      );
      await until(() => repo.backlogReads === 1);
      // made after the backlog read, seen by the live reader while the backlog's answer is held back
      await add(3);
      await until(() => live.length === 4);
      repo.release();
      await add(4);
      await until(() => resumed.length >= 4);
      await until(() => live.length === 5);

      expect(resumed).toEqual(live.slice(1));
      liveAbort.abort();
      resumedAbort.abort();
      await Promise.all([liveDone, resumedDone]);
      expect(hub.open).toBe(0);
      await hub.close();
    });
  });
}
