/**
 * The live feed's hub (issue 38, item 2 and the feed side of 3): resume by Last-Event-ID with
 * nothing missed and nothing twice while turns keep coming, the caps per session and per instance
 * (429 in the contract's error shape), and a feed opened with a console cookie that ends when its
 * session is signed out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRedisStore, redisAvailable, testPrefix } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall } from '../helpers/ivr-call.js';
import { MemoryStore, type Store } from '../../src/store/index.js';
import { SseClient, type SseEvent } from './sse-client.js';

const setups = [
  { name: 'memory', available: true, store: async (): Promise<Store> => new MemoryStore(testPrefix()) },
  {
    name: 'redis',
    available: redisAvailable(),
    store: async (): Promise<Store> => makeRedisStore(testPrefix()),
  },
];

/** Reads `n` events (or until the feed ends), failing after `ms`. */
async function take(c: SseClient, n: number, ms = 15_000): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  const deadline = setTimeout(() => c.close(), ms);
  try {
    while (out.length < n) out.push(await c.next());
  } catch {
    // ended (or closed by the deadline): the caller compares what came
  } finally {
    clearTimeout(deadline);
  }
  return out;
}

for (const setup of setups) {
  describe.skipIf(!setup.available)(`live feed hub [${setup.name}]`, () => {
    let store: Store;
    let gw: RunningGateway;
    let app: IvrApp;
    const open: SseClient[] = [];

    beforeAll(async () => {
      store = await setup.store();
      gw = await startGateway({
        store,
        config: {
          abuseLimits: {
            feedsPerSession: 3,
            feedsPerInstance: 5,
            agentUploadsPerMinute: 100,
            trainingQueueMax: 50,
          },
        },
      });
      app = await setupIvrApp(gw);
    });
    afterAll(async () => {
      for (const c of open) c.close();
      await gw.close();
      await store.close();
    });

    const feedUrl = () => `${gw.url}/api/admin/apps/${app.streamId}/calls/feed`;
    const bearer = (extra: Record<string, string> = {}) => ({
      Authorization: `Bearer ${gw.config.adminToken}`,
      ...extra,
    });
    const feed = async (headers: Record<string, string>) => {
      const c = await SseClient.open(feedUrl(), headers);
      open.push(c);
      return c;
    };
    const closeAll = () => {
      for (const c of open.splice(0)) c.close();
    };
    const signIn = async (): Promise<string> => {
      const res = await fetch(`${gw.url}/api/console/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: gw.url },
        body: JSON.stringify({ token: gw.config.adminToken }),
      });
      expect(res.status).toBe(201);
      return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    };

    /** Three calls taking turns in turn: `rounds` posts each after their start. */
    const makeTurns = async (calls: IvrCall[], rounds: number) => {
      for (let r = 0; r < rounds; r++) for (const c of calls) await c.say(`table for ${r + 2}`);
    };

    it('when a feed resumes from an old event while turns keep coming, then it gets every later event once and in order', async () => {
      const live = await feed(bearer());
      expect(live.status).toBe(200);
      const calls = [
        new IvrCall(gw, app.webhookUrl),
        new IvrCall(gw, app.webhookUrl),
        new IvrCall(gw, app.webhookUrl),
      ];
      for (const c of calls) await c.start();
      const firstThree = await take(live, 3);
      expect(firstThree).toHaveLength(3);
      const resumeFrom = firstThree[0]!.id!;

      // turns before, during and after the resumed feed's backlog read
      const turning = makeTurns(calls, 4);
      const resumed = await feed(bearer({ 'Last-Event-ID': resumeFrom }));
      expect(resumed.status).toBe(200);
      await turning;
      await makeTurns(calls, 1);
      const posts = 3 + 3 * 5;

      const all = [...firstThree, ...(await take(live, posts - 3))];
      expect(all).toHaveLength(posts);
      const expected = all.slice(1).map((e) => e.id);
      const got = (await take(resumed, expected.length)).map((e) => e.id);
      expect(got).toEqual(expected);
      expect(new Set(got).size).toBe(got.length);
      closeAll();
    });

    it('when a feed resumes with no other feed open here, then it still gets every later event once', async () => {
      const calls = [new IvrCall(gw, app.webhookUrl)];
      const watcher = await feed(bearer());
      await calls[0]!.start();
      const [first] = await take(watcher, 1);
      watcher.close();
      await makeTurns(calls, 3);
      const resumed = await feed(bearer({ 'Last-Event-ID': first!.id! }));
      const got = await take(resumed, 3);
      expect(got.map((e) => JSON.parse(e.data).trace.turn)).toEqual([1, 2, 3]);
      closeAll();
    });

    it('when a session holds its cap of feeds, then the next is refused with 429 and Retry-After in the error shape, and a closed one makes room', async () => {
      const mine = [await feed(bearer()), await feed(bearer()), await feed(bearer())];
      for (const c of mine) expect(c.status).toBe(200);
      const over = await feed(bearer());
      expect(over.status).toBe(429);
      expect(Number(over.retryAfter)).toBeGreaterThan(0);
      expect(over.body).toMatchObject({
        errors: [{ code: 'rate_limited', msg: expect.stringContaining('FEEDS_MAX_PER_SESSION') }],
      });

      // another session has its own cap, until the instance's is reached (5)
      const cookie = await signIn();
      const theirs = [await feed({ Cookie: cookie }), await feed({ Cookie: cookie })];
      for (const c of theirs) expect(c.status).toBe(200);
      const full = await feed({ Cookie: await signIn() });
      expect(full.status).toBe(429);
      expect(full.body).toMatchObject({
        errors: [{ code: 'rate_limited', msg: expect.stringContaining('FEEDS_MAX_PER_INSTANCE') }],
      });

      mine[0]!.close();
      // the server sees the close when the socket ends
      let again: SseClient | undefined;
      for (let i = 0; i < 50 && again?.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        again = await feed(bearer());
      }
      expect(again!.status).toBe(200);
      closeAll();
    });

    it('when the operator signs out, then a feed opened with the session cookie ends with reason session_ended', async () => {
      const cookie = await signIn();
      const watching = await feed({ Cookie: cookie });
      expect(watching.status).toBe(200);
      const out = await fetch(`${gw.url}/api/console/session`, {
        method: 'DELETE',
        headers: { Cookie: cookie, Origin: gw.url },
      });
      expect(out.status).toBe(204);
      const [last, ...more] = await take(watching, 2);
      expect(last).toMatchObject({ event: 'end' });
      expect(JSON.parse(last!.data)).toEqual({ reason: 'session_ended' });
      expect(more).toHaveLength(0); // the stream ended
      const reopened = await feed({ Cookie: cookie });
      expect(reopened.status).toBe(401);
      closeAll();
    });
  });
}
