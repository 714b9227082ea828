import { afterAll, beforeAll, expect, it } from 'vitest';
import { historyLayout, newMessageSchema, type NewMessage } from '../../src/history/index.js';
import { HistoryRecorder } from '../../src/history/history-recorder.js';
import { HistoryRepository } from '../../src/history/history-repository.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { AppError } from '../../src/platform/index.js';
import { LRUCache } from 'lru-cache';
import { describeEachStore } from '../helpers/test-stores.js';
import { D, NOW, historyHarness, idsOf, newestFirst, type HistoryHarness } from './history-harness.js';
import { ivrCall, msgIdFor } from './ivr-call.js';

describeEachStore('conversation history recorder', 'store', (factory) => {
  let h: HistoryHarness;
  let store: Store;
  const user = (n: number) => ({ userId: `u-rec-${n}`, from: `+1555070${n}` });

  beforeAll(async () => {
    h = await historyHarness(factory);
    store = h.t.store;
  });
  afterAll(() => h.close());

  it('when the same turn is recorded twice, or concurrently, then nothing is duplicated', async () => {
    const call = ivrCall({
      botId: h.botId,
      ...user(1),
      callId: 'call-r1',
      start: NOW - D,
      turns: [
        { caller: 'hi', bot: 'hello' },
        { caller: 'bye', bot: 'goodbye' },
      ],
    });
    await h.comp.recorder.record(call);
    await h.comp.recorder.record(call);
    await Promise.all([
      h.comp.recorder.record(call.slice(0, 2)),
      h.comp.recorder.record(call),
      h.comp.recorder.record(call.slice(2)),
    ]);
    await h.comp.recorder.record([...call, ...call]);
    const res = await h.get('v1', { userId: user(1).userId, channelType: 'ivr' }).expect(200);
    expect(idsOf(res)).toEqual(newestFirst(call));
    expect(res.body.total).toBe(4);
    const viaFrom = await h.get('v1', { userId: user(1).from, channelType: 'ivr' }).expect(200);
    expect(viaFrom.body.total).toBe(4);
  });

  it('when one record carries a message twice, or messages of two apps, then each is stored once in its app', async () => {
    const [hi, hello] = ivrCall({
      botId: h.botId,
      ...user(9),
      callId: 'call-r9',
      start: NOW - D,
      turns: [{ caller: 'hi', bot: 'hello' }],
    });
    await h.comp.recorder.record([hi!, hi!]);
    await h.comp.recorder
      .record([hello!, { ...hello!, streamId: 'st-unknown-app' }].reverse())
      .catch((e: unknown) => e);
    const res = await h.get('v1', { userId: user(9).userId, channelType: 'ivr' }).expect(200);
    expect(idsOf(res)).toEqual([hello!.id, hi!.id]);
    expect(await store.hget(historyLayout.messageKey('st-unknown-app', hello!.id), 'id')).toBeNull();
  });

  it("when a new session's first turn is planned, then its index entries travel together and its session meta is written last", () => {
    const call = ivrCall({
      botId: h.botId,
      ...user(11),
      callId: 'call-r11',
      start: NOW - D,
      turns: [{ caller: 'one', bot: 'two' }],
    });
    const plan = new HistoryRecorder(new HistoryRepository(store), new LRUCache({ max: 1000 })).prepare(
      call.map((m) => newMessageSchema.parse(m)),
    )!;
    const kinds = plan.ops.map((o) =>
      o.op === 'zadd'
        ? 'index'
        : o.key === historyLayout.metaKey(h.botId, 'sess-call-r11')
          ? 'meta'
          : 'message',
    );
    // the messages' hashes and traces, then every index entry in one run (one ZADD per index on Redis),
    // then the meta: a script stopped part-way never leaves a meta that claims entries it lacks
    expect(kinds.join(' ')).toMatch(/^(message )+(index )+meta$/);
    expect(kinds.filter((k) => k === 'index').length).toBeGreaterThanOrEqual(10);
  });

  it('when a prepared write meets what another instance stored, then its guards refuse it whole and record stores the messages once', async () => {
    const call = ivrCall({
      botId: h.botId,
      ...user(10),
      callId: 'call-r10',
      start: NOW - D,
      turns: [
        { caller: 'one', bot: 'two' },
        { caller: 'three', bot: 'four' },
      ],
    });
    const valid = call.map((m) => newMessageSchema.parse(m));
    const a = new HistoryRecorder(new HistoryRepository(store), new LRUCache({ max: 1000 }));
    const b = new HistoryRecorder(new HistoryRepository(store), new LRUCache({ max: 1000 }));
    // instance a prepares and applies the first turn (as the IVR does with its commit)
    const first = a.prepare(valid.slice(0, 2))!;
    expect(await store.atomic(first.ops, first.guards)).toEqual({ ok: true });
    first.applied();
    // a knows the session now: its next turn carries no session bookkeeping
    const metaKey = historyLayout.metaKey(h.botId, 'sess-call-r10');
    expect(a.prepare(valid.slice(2))!.ops.some((o) => o.key === metaKey)).toBe(false);
    // instance b has not seen the session: its plan expects none, the stored one refuses it
    const stale = b.prepare(valid.slice(2))!;
    const refused = await store.atomic(stale.ops, stale.guards);
    expect(refused.ok).toBe(false);
    for (const m of valid.slice(2))
      expect(await store.exists(historyLayout.messageKey(h.botId, m.id))).toBe(false);
    await b.record(valid.slice(2));
    // now the messages exist: a plan for them is refused on their ids
    const again = a.prepare(valid.slice(2))!;
    expect(await store.atomic(again.ops, again.guards)).toMatchObject({ ok: false });
    const res = await h.get('v1', { userId: user(10).userId, channelType: 'ivr' }).expect(200);
    expect(idsOf(res)).toEqual(newestFirst(call));
    expect(
      await store.zscore(
        historyLayout.sessionSetKey(h.botId, 'ivr', 'v2', `u:${user(10).from}`),
        'sess-call-r10',
      ),
    ).toBe(NOW - D);
    // messages of two apps, or one message twice, are left to record
    expect(a.prepare([valid[0]!, { ...valid[1]!, streamId: 'st-other' }])).toBeNull();
    expect(a.prepare([valid[0]!, valid[0]!])).toBeNull();
    expect(a.prepare([valid[0]!, valid[1]!, valid[0]!])).toBeNull();
    expect(a.prepare([])).toBeNull();
  });

  it('when a re-recorded id carries other content, then the first recording stands', async () => {
    const [first] = ivrCall({
      botId: h.botId,
      ...user(2),
      callId: 'call-r2',
      start: NOW - D,
      turns: [{ caller: 'original' }],
    });
    await h.comp.recorder.record([first!]);
    await h.comp.recorder.record([{ ...first!, text: 'changed', createdOn: NOW - 2 * D }]);
    const res = await h.get('v1', { userId: user(2).userId, channelType: 'ivr' }).expect(200);
    expect(
      res.body.messages.map(
        (m: { components: Array<{ data: { text: string } }> }) => m.components[0]!.data.text,
      ),
    ).toEqual(['original']);
  });

  it('when turns of a session arrive out of order, then the session is indexed at its first message', async () => {
    const call = ivrCall({
      botId: h.botId,
      ...user(3),
      callId: 'call-r3',
      start: NOW - 2 * D,
      turns: [
        { caller: 'one', bot: 'two' },
        { caller: 'three', bot: 'four' },
      ],
    });
    await h.comp.recorder.record(call.slice(2));
    await h.comp.recorder.record(call.slice(0, 2));
    for (const scope of ['all', `u:${user(3).userId}`, `u:${user(3).from}`, 'u:call-r3'] as const) {
      for (const version of ['v1', 'v2'] as const) {
        expect(
          await store.zscore(historyLayout.sessionSetKey(h.botId, 'ivr', version, scope), 'sess-call-r3'),
        ).toBe(NOW - 2 * D);
      }
    }
  });

  it('when a session holds only Alert messages, then it is a v1 session but not a v2 one', async () => {
    const call = ivrCall({
      botId: h.botId,
      ...user(4),
      callId: 'call-r4',
      start: NOW - D,
      turns: [{ bot: 'Your order shipped.', taskKind: 'Alert' }],
    });
    await h.comp.recorder.record(call);
    expect(
      await store.zscore(
        historyLayout.sessionSetKey(h.botId, 'ivr', 'v1', `u:${user(4).userId}`),
        'sess-call-r4',
      ),
    ).toBe(NOW - D + 1_000);
    expect(
      await store.zscore(
        historyLayout.sessionSetKey(h.botId, 'ivr', 'v2', `u:${user(4).userId}`),
        'sess-call-r4',
      ),
    ).toBeNull();
    const v2 = await h
      .get('v2', { userId: user(4).userId, channelType: 'ivr', includeSecureForm: 'false' })
      .expect(200);
    expect(v2.body.total).toBe(0);
  });

  it('when a traceId is recorded, then it expires 30 days after the message (older ones are not kept)', async () => {
    const recent = ivrCall({
      botId: h.botId,
      ...user(5),
      callId: 'call-r5',
      start: NOW - 29 * D,
      turns: [{ caller: 'recent' }],
    });
    const old = ivrCall({
      botId: h.botId,
      ...user(5),
      callId: 'call-r5-old',
      start: NOW - 31 * D,
      turns: [{ caller: 'old' }],
    });
    await h.comp.recorder.record([...recent, ...old]);
    const ttl = await store.pttl(historyLayout.traceKey(h.botId, recent[0]!.id));
    expect(ttl).toBeGreaterThan(D - 60_000);
    expect(ttl).toBeLessThanOrEqual(D);
    expect(await store.exists(historyLayout.traceKey(h.botId, old[0]!.id))).toBe(false);
    const res = await h
      .post('v1', {
        userId: user(5).userId,
        channelType: 'ivr',
        includeTraceId: true,
        dateFrom: new Date(NOW - 31 * D - 1).toISOString(),
      })
      .expect(200);
    const byId = Object.fromEntries(
      res.body.messages.map((m: { _id: string; traceId?: string }) => [m._id, m.traceId]),
    );
    expect(byId[recent[0]!.id]).toMatch(/^tr-/);
    expect(byId[old[0]!.id]).toBeUndefined();
  });

  it("when the webhook's turn message has no channel, then it is recorded as ivr with its identities", async () => {
    const turn = {
      id: msgIdFor('call-r6', 0, 'in'),
      streamId: h.botId,
      userId: 'u-rec-6',
      identities: ['call-r6', '+15550706'],
      sessionId: 's-r6',
      callId: 'call-r6',
      type: 'incoming' as const,
      text: 'Login.',
      channelUId: '+15550706',
      createdOn: NOW - 1_000,
      lang: 'en',
      traceId: 'tr-r6',
      asrMetaData: {
        confidence: '0.810000',
        Inputmode: 'voice',
        interpretation: 'Login.',
        utterance: 'Login.',
        data: {
          text: { confidence: '0.810000', Inputmode: 'voice', interpretation: 'Login.', utterance: 'Login.' },
        },
      },
    };
    await h.comp.recorder.record([turn]);
    const res = await h.get('v1', { userId: 'call-r6', channelType: 'ivr' }).expect(200);
    expect(res.body.messages[0]).toMatchObject({
      _id: turn.id,
      chnl: 'ivr',
      createdBy: 'u-rec-6',
      sessionId: 's-r6',
      createdOn: new Date(NOW - 1_000).toISOString(),
    });
    const stored = await store.hgetall(historyLayout.messageKey(h.botId, turn.id));
    expect(JSON.parse(stored.asr!)).toEqual(turn.asrMetaData);
  });

  it('when messages of two apps come in one call, then each lands in its own app', async () => {
    const other = await h.t.createAppWithClient(['chat-history']);
    const mine = ivrCall({
      botId: h.botId,
      ...user(7),
      callId: 'call-r7',
      start: NOW - D,
      turns: [{ caller: 'mine' }],
    });
    const theirs = ivrCall({
      botId: other.streamId,
      ...user(7),
      callId: 'call-r7b',
      start: NOW - D,
      turns: [{ caller: 'theirs' }],
    });
    await h.comp.recorder.record([...mine, ...theirs]);
    const res = await h.get('v1', { userId: user(7).userId, channelType: 'ivr' }).expect(200);
    expect(idsOf(res)).toEqual([mine[0]!.id]);
    expect(await store.exists(historyLayout.messageKey(other.streamId, theirs[0]!.id))).toBe(true);
  });

  it('when a message is invalid, then record throws a 400 naming the field and stores nothing', async () => {
    const bad = {
      id: 'not-an-id',
      streamId: h.botId,
      userId: 'u',
      sessionId: 's',
      type: 'incoming',
      text: 'x',
      createdOn: NOW,
    } as NewMessage;
    const err = await h.comp.recorder.record([bad]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).details[0]!.path).toBe('messages.0.id');
    const wrongChannel = { ...bad, id: msgIdFor('x', 0, 'in'), channel: 'fax' } as unknown as NewMessage;
    await expect(h.comp.recorder.record([wrongChannel])).rejects.toBeInstanceOf(AppError);
  });

  it('when the app does not exist (or was deleted while a turn ran), then record refuses with 404 and stores nothing', async () => {
    const gone = 'st-00000000-0000-4000-8000-0000000de1e7';
    const call = ivrCall({
      botId: gone,
      ...user(8),
      callId: 'call-r8',
      start: NOW - D,
      turns: [{ caller: 'too late', bot: 'nobody hears this' }],
    });
    const err = await h.comp.recorder.record(call).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(404);
    for (const m of call) expect(await store.exists(historyLayout.messageKey(gone, m.id))).toBe(false);
    expect(await store.deletePrefix(storeKeys.appScope(gone))).toBe(0);
  });

  it('when many calls of one app record at once, then their writes are grouped and every message is stored once', async () => {
    let atomics = 0;
    const counting: Store = Object.create(store, {
      atomic: { value: (...a: Parameters<Store['atomic']>) => ((atomics += 1), store.atomic(...a)) },
    });
    const recorder = new HistoryRecorder(new HistoryRepository(counting), new LRUCache({ max: 1000 }));
    const calls = Array.from({ length: 40 }, (_, i) =>
      ivrCall({
        botId: h.botId,
        userId: `u-group-${i}`,
        from: `+1555090${String(i).padStart(2, '0')}`,
        callId: `call-group-${i}`,
        start: NOW - D,
        turns: [{ caller: `hello ${i}`, bot: `hi ${i}` }],
      }),
    );
    await Promise.all(calls.map((c) => recorder.record(c)));
    // the first write goes alone; the 39 that arrive while it is in flight go in at most two more (32 each)
    expect(atomics).toBeLessThanOrEqual(3);
    for (const [i, c] of calls.entries()) {
      const res = await h.get('v1', { userId: `u-group-${i}`, channelType: 'ivr' }).expect(200);
      expect(idsOf(res)).toEqual(newestFirst(c));
    }
  });

  it('when a grouped write meets a message already stored, then each record is written on its own and nothing is lost or doubled', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((k) =>
      ivrCall({
        botId: h.botId,
        userId: `u-regroup-${k}`,
        from: '+15550911',
        callId: `call-regroup-${k}`,
        start: NOW - D,
        turns: [{ caller: `x ${k}`, bot: `y ${k}` }],
      }),
    );
    await h.comp.recorder.record(a!);
    await Promise.all([
      h.comp.recorder.record(b!.slice(0, 1)),
      h.comp.recorder.record(a!),
      h.comp.recorder.record(b!),
      h.comp.recorder.record(c!),
    ]);
    for (const [k, call] of [
      ['a', a!],
      ['b', b!],
      ['c', c!],
    ] as const) {
      const res = await h.get('v1', { userId: `u-regroup-${k}`, channelType: 'ivr' }).expect(200);
      expect(idsOf(res)).toEqual(newestFirst(call));
      expect(res.body.total).toBe(2);
    }
  });

  it('when later turns of a known session are recorded, then its bookkeeping is not rewritten, but a new identity still joins its sets', async () => {
    const writes: Array<Parameters<Store['atomic']>[0]> = [];
    const counting: Store = Object.create(store, {
      atomic: { value: (...a: Parameters<Store['atomic']>) => (writes.push(a[0]), store.atomic(...a)) },
    });
    const recorder = new HistoryRecorder(new HistoryRepository(counting), new LRUCache({ max: 1000 }));
    const call = ivrCall({
      botId: h.botId,
      userId: 'u-steady',
      from: '+15550931',
      callId: 'call-steady',
      start: NOW - D,
      turns: [
        { caller: 'one', bot: 'two' },
        { caller: 'three', bot: 'four' },
      ],
    });
    const metaKey = historyLayout.metaKey(h.botId, 'sess-call-steady');
    const touchesSession = (ops: Parameters<Store['atomic']>[0]) =>
      ops.some((o) => o.key === metaKey || o.key.includes(':hs:'));
    await recorder.record(call.slice(0, 2));
    expect(touchesSession(writes[0]!)).toBe(true);
    await recorder.record(call.slice(2));
    expect(touchesSession(writes[1]!)).toBe(false);
    // the same session heard from another number: that identity's session sets get the session
    const other = ivrCall({
      botId: h.botId,
      userId: 'u-steady',
      from: '+15550932',
      callId: 'call-steady',
      start: NOW - D,
      turns: [{}, {}, { caller: 'five' }],
    });
    await recorder.record(other);
    expect(touchesSession(writes[2]!)).toBe(true);
    for (const version of ['v1', 'v2'] as const) {
      expect(
        await store.zscore(
          historyLayout.sessionSetKey(h.botId, 'ivr', version, 'u:+15550932'),
          'sess-call-steady',
        ),
      ).toBe(NOW - D);
    }
    const res = await h.get('v1', { userId: '+15550932', channelType: 'ivr' }).expect(200);
    expect(res.body.total).toBe(1);
  });

  it('when identities look alike after key sanitising, then they stay apart', async () => {
    const a = ivrCall({
      botId: h.botId,
      userId: 'john doe',
      from: '+1',
      callId: 'call-r8a',
      start: NOW - D,
      turns: [{ caller: 'a' }],
    });
    const b = ivrCall({
      botId: h.botId,
      userId: 'john_doe',
      from: '+2',
      callId: 'call-r8b',
      start: NOW - D,
      turns: [{ caller: 'b' }],
    });
    await h.comp.recorder.record([...a, ...b]);
    const res = await h.get('v1', { userId: 'john doe', channelType: 'ivr' }).expect(200);
    expect(idsOf(res)).toEqual([a[0]!.id]);
  });
});
