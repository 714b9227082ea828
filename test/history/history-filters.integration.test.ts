import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  ALICE,
  BOB,
  D,
  ICON,
  NOW,
  dataset,
  historyHarness,
  idsOf,
  newestFirst,
  type HistoryHarness,
} from './history-harness.js';
import { msgIdFor } from './ivr-call.js';
import type { NewMessage } from '../../src/history/index.js';

describeEachStore('conversation history filters', 'api', (factory) => {
  let h: HistoryHarness;
  let calls: Record<string, NewMessage[]>;
  const ids = (...names: string[]) => newestFirst(names.flatMap((n) => calls[n]!));
  const dialogOnly = (...names: string[]) =>
    newestFirst(names.flatMap((n) => calls[n]!).filter((m) => !m.taskKind || m.taskKind === 'Dialog'));

  beforeAll(async () => {
    h = await historyHarness(factory);
    const data = dataset(h.botId);
    calls = data.calls;
    await h.comp.recorder.record(data.messages);
  });
  afterAll(() => h.close());

  describe('userId', () => {
    it("when userId is the IVR user id, then the user's ivr messages of the last 7 days come back newest first", async () => {
      const res = await h.get('v1', { userId: ALICE.userId, channelType: 'ivr' }).expect(200);
      expect(idsOf(res)).toEqual(ids('a1', 'a2', 'a3'));
      expect(res.body).toMatchObject({ total: 16, moreAvailable: false, icon: ICON });
    });
    it("when userId is the caller's from number or a callId, then the same identities match", async () => {
      const byFrom = await h.get('v1', { userId: ALICE.from, channelType: 'ivr' }).expect(200);
      expect(idsOf(byFrom)).toEqual(ids('a1', 'a2', 'a3'));
      const byCall = await h.get('v1', { userId: 'call-a2', channelType: 'ivr' }).expect(200);
      expect(idsOf(byCall)).toEqual(ids('a2'));
    });
    it('when channelType is not given, then it defaults to rtm', async () => {
      const res = await h.get('v1', { userId: ALICE.userId }).expect(200);
      expect(idsOf(res)).toEqual(ids('aRtm'));
      expect(res.body.messages.every((m: { chnl: string }) => m.chnl === 'rtm')).toBe(true);
    });
    it('when the user is unknown, then the page is empty', async () => {
      const res = await h.get('v1', { userId: 'u-nobody', channelType: 'ivr' }).expect(200);
      expect(res.body).toEqual({ total: 0, moreAvailable: false, icon: ICON, messages: [] });
    });
  });

  describe('message shape', () => {
    it('when a message is returned, then it has the Message fields of the contract', async () => {
      const res = await h
        .get('v1', {
          userId: ALICE.userId,
          channelType: 'ivr',
          sessionId: 'sess-call-a3',
          includeTraceId: 'true',
        })
        .expect(200);
      const incoming = res.body.messages.find((m: { _id: string }) => m._id === msgIdFor('call-a3', 0, 'in'));
      expect(incoming).toEqual({
        _id: msgIdFor('call-a3', 0, 'in'),
        botId: h.botId,
        type: 'incoming',
        status: 'received',
        createdBy: ALICE.userId,
        channels: [{ type: 'ivr', channelUId: ALICE.from }],
        components: [{ cT: 'text', data: { text: 'cancel my booking' } }],
        createdOn: new Date(NOW - D).toISOString(),
        lang: 'en',
        chnl: 'ivr',
        sessionId: 'sess-call-a3',
        tags: { intent: 'Cancel' },
        traceId: expect.stringMatching(/^tr-/),
      });
      const outgoing = res.body.messages.find(
        (m: { _id: string }) => m._id === msgIdFor('call-a3', 0, 'out'),
      );
      expect(outgoing).toMatchObject({
        type: 'outgoing',
        status: 'delivered',
        components: [{ cT: 'text', data: { text: 'Cancelled.' } }],
      });
      expect(outgoing.traceId).toBeUndefined();
    });
    it('when includeTraceId is not true, then no message carries a traceId', async () => {
      for (const includeTraceId of [undefined, 'false']) {
        const res = await h
          .get('v1', {
            userId: ALICE.userId,
            channelType: 'ivr',
            ...(includeTraceId ? { includeTraceId } : {}),
          })
          .expect(200);
        expect(res.body.messages.some((m: object) => 'traceId' in m)).toBe(false);
      }
    });
    it('when getAgentsInfo is true, then an (empty, for IVR) agentsInfo member is added', async () => {
      const res = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', getAgentsInfo: 'true' })
        .expect(200);
      expect(res.body.agentsInfo).toEqual([]);
      const plain = await h.get('v1', { userId: ALICE.userId, channelType: 'ivr' }).expect(200);
      expect(plain.body.agentsInfo).toBeUndefined();
    });
  });

  describe('v1 and v2', () => {
    it('when reading v2, then Alert and Action task messages are left out; v1 includes them', async () => {
      const v1 = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', sessionId: 'sess-call-a2' })
        .expect(200);
      const v2 = await h
        .get('v2', {
          userId: ALICE.userId,
          channelType: 'ivr',
          sessionId: 'sess-call-a2',
          includeSecureForm: 'true',
        })
        .expect(200);
      expect(idsOf(v1)).toEqual(ids('a2'));
      expect(idsOf(v2)).toEqual(dialogOnly('a2'));
      expect(v1.body.total).toBe(7);
      expect(v2.body.total).toBe(5);
      const texts = v2.body.messages.map(
        (m: { components: Array<{ data: { text: string } }> }) => m.components[0]!.data.text,
      );
      expect(texts).not.toContain('Your table is ready.');
      expect(texts).not.toContain('Transferring you to an agent.');
    });
    it('when includeSecureForm is false or absent, then form input is blanked; when true, it is shown', async () => {
      const pin = msgIdFor('call-a2', 2, 'in');
      const text = (res: {
        body: { messages: Array<{ _id: string; components: Array<{ data: { text: string } }> }> };
      }) => res.body.messages.find((m) => m._id === pin)!.components[0]!.data.text;
      expect(text(await h.get('v1', { userId: ALICE.userId, channelType: 'ivr' }).expect(200))).toBe('');
      expect(
        text(
          await h
            .get('v2', { userId: ALICE.userId, channelType: 'ivr', includeSecureForm: 'false' })
            .expect(200),
        ),
      ).toBe('');
      expect(
        text(
          await h
            .get('v2', { userId: ALICE.userId, channelType: 'ivr', includeSecureForm: 'true' })
            .expect(200),
        ),
      ).toBe('1234');
      expect(
        text(
          await h
            .post('v1', { userId: ALICE.userId, channelType: 'ivr', includeSecureForm: true })
            .expect(200),
        ),
      ).toBe('1234');
    });
  });

  describe('dates', () => {
    it('when dateFrom and dateTo are days, then dateTo includes its whole day', async () => {
      const res = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', dateFrom: '2025-01-10', dateTo: '2025-01-12' })
        .expect(200);
      expect(idsOf(res)).toEqual(ids('a1', 'a2'));
    });
    it('when dates carry a time, then the window is exact to the millisecond', async () => {
      const res = await h
        .get('v1', {
          userId: ALICE.userId,
          channelType: 'ivr',
          dateFrom: '2025-01-12T00:00:00.000Z',
          dateTo: '2025-01-12T12:00:10.000Z',
        })
        .expect(200);
      expect(idsOf(res)).toEqual([msgIdFor('call-a2', 1, 'in'), msgIdFor('call-a2', 0, 'out')]);
    });
    it('when only dateFrom is given, then dateTo is 7 days later', async () => {
      const res = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', dateFrom: '2025-01-13' })
        .expect(200);
      expect(idsOf(res)).toEqual(ids('a3'));
    });
    it('when only dateTo is given, then dateFrom is 7 days earlier (reaching a call older than the default window)', async () => {
      const res = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', dateTo: '2025-01-11' })
        .expect(200);
      expect(idsOf(res)).toEqual(ids('a0', 'a1'));
    });
    it('when no date is given, then the window is the last 7 days (the 10-day-old call is out)', async () => {
      const res = await h.get('v1', { userId: ALICE.userId, channelType: 'ivr' }).expect(200);
      expect(idsOf(res)).not.toContain(msgIdFor('call-a0', 0, 'in'));
    });
  });

  describe('sessionId, callId, tags', () => {
    it('when sessionId is given on GET, then only that session comes back', async () => {
      const res = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', sessionId: 'sess-call-a1' })
        .expect(200);
      expect(idsOf(res)).toEqual(ids('a1'));
    });
    it('when sessionId is an array on POST (no userId), then those sessions come back', async () => {
      const res = await h
        .post('v1', { channelType: 'ivr', sessionId: ['sess-call-a1', 'sess-call-b1'] })
        .expect(200);
      expect(idsOf(res)).toEqual(ids('a1', 'b1'));
      expect(res.body.total).toBe(7);
    });
    it('when sessionId belongs to another user, then the userId filter leaves nothing', async () => {
      const res = await h
        .get('v1', { userId: BOB.userId, channelType: 'ivr', sessionId: 'sess-call-a1' })
        .expect(200);
      expect(res.body).toMatchObject({ total: 0, messages: [] });
    });
    it('when callId is given, then only that call comes back (with or without userId)', async () => {
      const withUser = await h
        .get('v1', { userId: ALICE.userId, channelType: 'ivr', callId: 'call-a3' })
        .expect(200);
      expect(idsOf(withUser)).toEqual(ids('a3'));
      expect(withUser.body.total).toBe(4);
      const alone = await h.post('v1', { channelType: 'ivr', callId: 'call-a3' }).expect(200);
      expect(idsOf(alone)).toEqual(ids('a3'));
      const otherUser = await h
        .get('v1', { userId: BOB.userId, channelType: 'ivr', callId: 'call-a3' })
        .expect(200);
      expect(otherUser.body.total).toBe(0);
    });
    it('when tags are given, then every given tag must match', async () => {
      const one = await h.post('v1', { channelType: 'ivr', tags: { intent: 'BookTable' } }).expect(200);
      const booked = [...calls.a1!, ...calls.b2!].filter((m) => m.tags?.intent === 'BookTable');
      expect(idsOf(one)).toEqual(newestFirst(booked));
      expect(one.body.total).toBe(6);
      const two = await h
        .post('v1', { channelType: 'ivr', tags: { intent: 'BookTable', entity: 'size' } })
        .expect(200);
      expect(idsOf(two)).toEqual(newestFirst(booked.filter((m) => m.tags?.entity === 'size')));
      expect(two.body.total).toBe(2);
      const none = await h
        .post('v1', { channelType: 'ivr', tags: { intent: 'BookTable', entity: 'nope' } })
        .expect(200);
      expect(none.body).toMatchObject({ total: 0, messages: [], moreAvailable: false });
    });
    it('when userId, sessionId and tags combine, then all of them apply', async () => {
      const res = await h
        .post('v1', {
          userId: ALICE.userId,
          channelType: 'ivr',
          sessionId: ['sess-call-a1', 'sess-call-b2'],
          tags: { intent: 'BookTable' },
        })
        .expect(200);
      expect(idsOf(res)).toEqual(newestFirst(calls.a1!.filter((m) => m.tags?.intent === 'BookTable')));
      expect(res.body.total).toBe(4);
      const bob = await h
        .post('v2', {
          userId: BOB.userId,
          channelType: 'ivr',
          tags: { intent: 'BookTable' },
          includeSecureForm: false,
          dateFrom: '2025-01-13',
        })
        .expect(200);
      expect(idsOf(bob)).toEqual(ids('b2'));
    });
  });

  describe('order and whole app', () => {
    it('when forward is true, then the oldest message comes first', async () => {
      const res = await h.post('v1', { userId: ALICE.userId, channelType: 'ivr', forward: true }).expect(200);
      expect(idsOf(res)).toEqual(ids('a1', 'a2', 'a3').reverse());
      const q = await h.get('v1', { userId: ALICE.userId, channelType: 'ivr', forward: 'true' }).expect(200);
      expect(idsOf(q)).toEqual(idsOf(res));
    });
    it('when POST has no userId, then the whole app is read, and total counts every match', async () => {
      const res = await h.post('v1', { channelType: 'ivr', limit: 100 }).expect(200);
      const inWindow = Object.entries(calls)
        .filter(([k]) => k !== 'a0' && k !== 'aRtm')
        .map(([k]) => k);
      expect(idsOf(res)).toEqual(ids(...inWindow));
      expect(res.body).toMatchObject({ total: 60, moreAvailable: false });
      const v2 = await h.post('v2', { channelType: 'ivr', limit: 100, includeSecureForm: true }).expect(200);
      expect(v2.body.total).toBe(58);
    });
    it('when the page is smaller than the matches, then total stays the count of all matches and moreAvailable is true', async () => {
      const res = await h.post('v1', { channelType: 'ivr', limit: 5 }).expect(200);
      expect(res.body.total).toBe(60);
      expect(res.body.moreAvailable).toBe(true);
      expect(res.body.messages.length).toBeLessThanOrEqual(5);
    });
  });
});
