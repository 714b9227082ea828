import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  CAROL,
  H,
  NOW,
  D,
  carolCalls,
  historyHarness,
  idsOf,
  newestFirst,
  type HistoryHarness,
} from './history-harness.js';
import { msgIdFor } from './ivr-call.js';
import type { NewMessage } from '../../src/history/index.js';

type Page = {
  body: { messages: Array<{ _id: string; sessionId: string }>; moreAvailable: boolean; total: number };
};

/** Pages with skip += (sessions in the page) until moreAvailable is false. */
async function pageBySessions(
  fetch: (skip: number) => Promise<Page>,
): Promise<{ ids: string[]; pages: string[][] }> {
  const pages: string[][] = [];
  let skip = 0;
  for (let guard = 0; guard < 50; guard++) {
    const res = await fetch(skip);
    pages.push(idsOf(res));
    skip += new Set(res.body.messages.map((m) => m.sessionId)).size;
    if (!res.body.moreAvailable) break;
  }
  return { ids: pages.flat(), pages };
}

describeEachStore('conversation history paging', 'api', (factory) => {
  let h: HistoryHarness;
  let calls: NewMessage[][];
  const all = () => newestFirst(calls.flat());

  beforeAll(async () => {
    h = await historyHarness(factory);
    calls = carolCalls(h.botId);
    // record call by call, turn by turn, as the webhook does
    for (const call of calls)
      for (let i = 0; i < call.length; i += 2) await h.comp.recorder.record(call.slice(i, i + 2));
  });
  afterAll(() => h.close());

  describe('skip/offset (sessions)', () => {
    it('when paging newest first with skip += sessions per page, then every message comes once, whole sessions per page', async () => {
      const r = await pageBySessions((skip) =>
        h
          .get('v1', { userId: CAROL.userId, channelType: 'ivr', limit: '10', skip: String(skip) })
          .expect(200),
      );
      expect(r.ids).toEqual(all());
      expect(r.pages.map((p) => p.length)).toEqual([8, 10, 10, 10, 2]);
    });
    it('when paging oldest first with offset, then every message comes once in time order', async () => {
      const r = await pageBySessions((skip) =>
        h
          .post('v1', { userId: CAROL.userId, channelType: 'ivr', limit: 10, offset: skip, forward: true })
          .expect(200),
      );
      expect(r.ids).toEqual(all().reverse());
      expect(r.pages.map((p) => p.length)).toEqual([6, 6, 10, 10, 8]);
    });
    it('when the window starts inside a session (oldest first), then that partial session counts as the first one skipped', async () => {
      const c3start = NOW - 6 * D + 45 * H;
      const dateFrom = new Date(c3start + 15_000).toISOString();
      const dateTo = new Date(c3start + 15_000 + 6 * D).toISOString();
      const expected = all()
        .reverse()
        .filter((id) => (calls.flat().find((m) => m.id === id)!.createdOn as number) >= c3start + 15_000);
      const r = await pageBySessions((skip) =>
        h
          .post('v1', {
            userId: CAROL.userId,
            channelType: 'ivr',
            limit: 10,
            skip,
            forward: true,
            dateFrom,
            dateTo,
          })
          .expect(200),
      );
      expect(r.ids).toEqual(expected);
      expect(r.pages.map((p) => p.length)).toEqual([10, 6, 8]);
    });
    it('when the whole app is paged with limit 8, then nothing is lost or repeated', async () => {
      const r = await pageBySessions((skip) =>
        h.post('v1', { channelType: 'ivr', limit: 8, skip }).expect(200),
      );
      expect(r.ids).toEqual(all());
    });
    it('when tags filter the sessions, then skip counts only sessions with matches', async () => {
      const tagged = newestFirst(calls.filter((_, k) => k % 2 === 0).flat());
      const r = await pageBySessions((skip) =>
        h
          .post('v1', {
            userId: CAROL.userId,
            channelType: 'ivr',
            tags: { intent: 'Paging' },
            limit: 10,
            skip,
          })
          .expect(200),
      );
      expect(r.ids).toEqual(tagged);
      expect(r.pages.map((p) => p.length)).toEqual([8, 8]);
      const appWide = await pageBySessions((skip) =>
        h.post('v1', { channelType: 'ivr', tags: { intent: 'Paging' }, limit: 7, skip }).expect(200),
      );
      expect(appWide.ids).toEqual(tagged);
    });
    it('when sessionIds are listed, then skip drops the newest listed sessions', async () => {
      const res = await h
        .post('v1', {
          channelType: 'ivr',
          sessionId: ['sess-call-c1', 'sess-call-c3', 'sess-call-c5'],
          skip: 1,
        })
        .expect(200);
      expect(idsOf(res)).toEqual(newestFirst([...calls[3]!, ...calls[1]!]));
      expect(res.body.total).toBe(16);
    });
    it('when skip passes every session, then the page is empty and nothing more is available', async () => {
      const res = await h.get('v1', { userId: CAROL.userId, channelType: 'ivr', skip: '8' }).expect(200);
      expect(res.body).toMatchObject({ messages: [], moreAvailable: false, total: 40 });
    });
    it('when one session is longer than the limit, then the page is that session cut at the limit', async () => {
      const res = await h.get('v1', { userId: CAROL.userId, channelType: 'ivr', limit: '5' }).expect(200);
      expect(idsOf(res)).toEqual(newestFirst(calls[7]!).slice(0, 5));
      expect(res.body.moreAvailable).toBe(true);
    });
  });

  describe('msgId', () => {
    it('when paging with msgId and direction -1, then pages continue exactly where the last one ended', async () => {
      const seen: string[] = [];
      let res = await h.get('v1', { userId: CAROL.userId, channelType: 'ivr', limit: '7' }).expect(200);
      seen.push(...idsOf(res));
      while (res.body.moreAvailable) {
        res = await h
          .post('v1', {
            userId: CAROL.userId,
            channelType: 'ivr',
            limit: 7,
            msgId: seen[seen.length - 1],
            direction: -1,
          })
          .expect(200);
        seen.push(...idsOf(res));
      }
      expect(seen).toEqual(all());
    });
    it('when direction is above 0 (the default), then the messages after msgId come', async () => {
      const anchor = msgIdFor('call-c3', 1, 'in');
      const order = all().reverse();
      const at = order.indexOf(anchor);
      const res = await h
        .post('v1', { userId: CAROL.userId, channelType: 'ivr', limit: 3, msgId: anchor, forward: true })
        .expect(200);
      expect(idsOf(res)).toEqual(order.slice(at + 1, at + 4));
      expect(res.body.moreAvailable).toBe(true);
      const newestFirstRes = await h
        .get('v1', { userId: CAROL.userId, channelType: 'ivr', limit: '3', msgId: anchor, direction: '1' })
        .expect(200);
      expect(idsOf(newestFirstRes)).toEqual(order.slice(at + 1, at + 4).reverse());
    });
    it('when direction is below 0, then the messages before msgId come', async () => {
      const anchor = msgIdFor('call-c3', 1, 'in');
      const order = all().reverse();
      const at = order.indexOf(anchor);
      const res = await h
        .post('v1', {
          userId: CAROL.userId,
          channelType: 'ivr',
          limit: 3,
          msgId: anchor,
          direction: -1,
          forward: true,
        })
        .expect(200);
      expect(idsOf(res)).toEqual(order.slice(at - 3, at));
    });
    it('when direction is 0, then messages on both sides of msgId come, msgId in the middle', async () => {
      const anchor = msgIdFor('call-c3', 1, 'in');
      const order = all().reverse();
      const at = order.indexOf(anchor);
      const res = await h
        .post('v1', {
          userId: CAROL.userId,
          channelType: 'ivr',
          limit: 5,
          msgId: anchor,
          direction: 0,
          forward: true,
        })
        .expect(200);
      expect(idsOf(res)).toEqual(order.slice(at - 2, at + 3));
      expect(res.body.moreAvailable).toBe(true);
      const first = order[0]!;
      const edge = await h
        .post('v1', {
          userId: CAROL.userId,
          channelType: 'ivr',
          limit: 5,
          msgId: first,
          direction: 0,
          forward: true,
        })
        .expect(200);
      expect(idsOf(edge)).toEqual(order.slice(0, 5));
    });
    it('when msgId is combined with a session filter, then only that session is read around it', async () => {
      const anchor = msgIdFor('call-c3', 2, 'out');
      const res = await h
        .get('v1', {
          userId: CAROL.userId,
          channelType: 'ivr',
          sessionId: 'sess-call-c3',
          msgId: anchor,
          direction: '1',
        })
        .expect(200);
      expect(idsOf(res)).toEqual([msgIdFor('call-c3', 3, 'out'), msgIdFor('call-c3', 3, 'in')]);
      expect(res.body.moreAvailable).toBe(false);
    });
    it('when msgId is unknown, then 404', async () => {
      const res = await h
        .get('v1', {
          userId: CAROL.userId,
          channelType: 'ivr',
          msgId: 'ms-00000000-0000-5000-a000-000000000000',
        })
        .expect(404);
      expect(res.body.errors[0].msg).toMatch(/Message not found/);
    });
  });
});
