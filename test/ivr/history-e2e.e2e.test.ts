import { afterAll, beforeAll, expect, it } from 'vitest';
import { LRUCache } from 'lru-cache';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall } from '../helpers/ivr-call.js';
import { signHs256 } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';
import { HistoryRecorder } from '../../src/history/history-recorder.js';
import { HistoryRepository } from '../../src/history/history-repository.js';
import { historyLayout } from '../../src/history/index.js';
import { messageId } from '../../src/ivr/call-turn-service.js';

describeEachStore('conversation history over recorded IVR calls', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let auth: string;
  const calls: IvrCall[] = [];

  const history = async (path: string, query: Record<string, string>) => {
    const res = await fetch(
      `${gw.url}/api/public/bot/${app.streamId}/${path}?${new URLSearchParams(query)}`,
      { headers: { auth } },
    );
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw);
    const client = await gw.admin('POST', `/api/admin/apps/${app.streamId}/api-apps`, {
      name: 'reports',
      scopes: ['chat-history'],
    });
    auth = signHs256({ appId: client.body.clientId }, client.body.clientSecret);
    for (const from of ['+15551230001', '+15551230002']) {
      const call = new IvrCall(gw, app.webhookUrl, from);
      await call.start();
      await call.say('book a table');
      await call.say('4', { inputmode: 'dtmf' });
      await call.say('march third');
      // a duplicate submit must not record anything twice
      await call.raw({
        turn: '3',
        message: 'march third',
        interpretation: 'march third',
        confidence: '0.9',
        inputmode: 'voice',
      });
      await call.say('yes');
      calls.push(call);
    }
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when a call is read by its callId, then every turn is there once, in order, with channel ivr and ASR metadata recorded', async () => {
    const call = calls[0]!;
    const r = await history('getMessages', {
      userId: call.callId,
      channelType: 'ivr',
      limit: '100',
      forward: 'true',
    });
    expect(r.status).toBe(200);
    const texts = r.body.messages.map((m: any) => `${m.type}:${m.components[0].data.text}`);
    expect(texts).toEqual([
      expect.stringMatching(/^outgoing:Welcome to Luigi's/),
      'incoming:book a table',
      'outgoing:For how many people?',
      'incoming:4',
      'outgoing:For which day?',
      'incoming:march third',
      expect.stringMatching(/^outgoing:A table for 4 on/),
      'incoming:yes',
      expect.stringMatching(/^outgoing:Your table for 4 is booked/),
    ]);
    expect(r.body.total).toBe(9);
    const first = r.body.messages[1];
    expect(first._id).toMatch(/^ms-[0-9a-f-]{36}$/);
    expect(first.channels[0]).toEqual({ type: 'ivr', channelUId: '+15551230001' });
    expect(first.traceId).toBeUndefined();
  });

  it("when a turn's incoming message was stored before the turn ran (an earlier run recorded it and died), then the turn commits and the message is there once, as first recorded", async () => {
    const call = new IvrCall(gw, app.webhookUrl, '+15551230009');
    await call.start();
    const session = (await gw.gateway.sessions.load(app.streamId, call.callId))!;
    // another instance's recorder (its own cache), as a run of this turn that died before its commit
    const other = new HistoryRecorder(new HistoryRepository(store), new LRUCache({ max: 1000 }));
    const id = messageId(call.callId, 1, 'in');
    await other.record([
      {
        id,
        streamId: app.streamId,
        userId: session.userId,
        identities: [call.callId, call.from],
        sessionId: session.sessionId,
        callId: call.callId,
        type: 'incoming',
        text: 'book a table (first run)',
        channel: 'ivr',
        channelUId: call.from,
        createdOn: Date.now(),
      },
    ]);
    expect(await call.say('book a table')).toContain('For how many people?');
    expect(await call.say('4', { inputmode: 'dtmf' })).toContain('For which day?');
    const r = await history('getMessages', {
      userId: call.callId,
      channelType: 'ivr',
      limit: '100',
      forward: 'true',
    });
    expect(r.body.messages.map((m: any) => `${m.type}:${m.components[0].data.text}`)).toEqual([
      expect.stringMatching(/^outgoing:Welcome to Luigi's/),
      'incoming:book a table (first run)',
      'outgoing:For how many people?',
      'incoming:4',
      'outgoing:For which day?',
    ]);
  });

  it('when a turn has lost its lock by its commit, then neither its session nor its messages are written', async () => {
    const call = new IvrCall(gw, app.webhookUrl, '+15551230010');
    await call.start();
    const sessions = gw.gateway.sessions;
    const before = (await sessions.load(app.streamId, call.callId))!;
    expect(await sessions.tryLock(app.streamId, call.callId, 'the-new-owner')).toBe(true);
    const recorder = new HistoryRecorder(new HistoryRepository(store), new LRUCache({ max: 1000 }));
    const msg = {
      id: messageId(call.callId, 1, 'in'),
      streamId: app.streamId,
      userId: before.userId,
      identities: [call.callId, call.from],
      sessionId: before.sessionId,
      callId: call.callId,
      type: 'incoming' as const,
      status: 'received' as const,
      text: 'lost',
      channel: 'ivr' as const,
      channelUId: call.from,
      createdOn: Date.now(),
      lang: 'en-US',
      taskKind: 'Dialog' as const,
    };
    const next = { ...before, turn: before.turn + 1 };
    if (store.atomicAcrossSlots) {
      const prepared = recorder.prepare([msg])!;
      expect(await sessions.commitWith(next, 'the-old-owner', prepared)).toBe('lost');
      expect(await store.hget(historyLayout.messageKey(app.streamId, msg.id), 'id')).toBeNull();
    } else {
      expect(await sessions.commit(next, 'the-old-owner')).toBe(false);
    }
    expect(await sessions.load(app.streamId, call.callId)).toEqual(before);
    await sessions.unlock(app.streamId, call.callId, 'the-new-owner');
  });

  it('when the from number is the userId, then the same messages are found', async () => {
    const r = await history('getMessagesV2', {
      userId: '+15551230002',
      channelType: 'ivr',
      includeSecureForm: 'false',
      limit: '100',
    });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(9);
    expect(r.body.messages[0].type).toBe('outgoing');
  });

  it('when a call is paged two messages at a time with msgId, then nothing is lost or repeated', async () => {
    const call = calls[1]!;
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${gw.url}/api/public/bot/${app.streamId}/getMessages`, {
        method: 'POST',
        headers: { auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ userId: call.callId, channelType: 'ivr', limit: 2, forward: true, ...body }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as any;
    };
    const all = (await post({ limit: 100 })).messages.map((m: any) => m._id);
    expect(all).toHaveLength(9);
    const seen: string[] = [];
    let page = await post({});
    for (let i = 0; i < 10; i++) {
      seen.push(...page.messages.map((m: any) => m._id));
      if (!page.moreAvailable) break;
      page = await post({ msgId: seen.at(-1), direction: 1 });
    }
    expect(seen).toEqual(all);
  });

  it('when traceIds are asked for, then incoming messages carry one', async () => {
    const r = await history('getMessages', {
      userId: calls[0]!.callId,
      channelType: 'ivr',
      includeTraceId: 'true',
      limit: '100',
    });
    const incoming = r.body.messages.filter((m: any) => m.type === 'incoming');
    expect(incoming.every((m: any) => typeof m.traceId === 'string')).toBe(true);
  });

  it('when includeAsrMetaData is true, then each caller turn carries its ASR confidence and input mode and each message its callId; without it, no message does', async () => {
    const r = await history('getMessages', {
      userId: calls[0]!.callId,
      channelType: 'ivr',
      includeAsrMetaData: 'true',
      limit: '100',
      forward: 'true',
    });
    const incoming = r.body.messages.filter(
      (m: any) => m.type === 'incoming' && m.components[0].data.text !== '',
    );
    expect(incoming.map((m: any) => [m.components[0].data.text, m.asrMetaData?.Inputmode])).toEqual([
      ['book a table', 'voice'],
      ['4', 'dtmf'],
      ['march third', 'voice'],
      ['yes', 'voice'],
    ]);
    expect(incoming.every((m: any) => /^\d\.\d{6}$/.test(m.asrMetaData.confidence))).toBe(true);
    expect(
      r.body.messages.filter((m: any) => m.type === 'outgoing').some((m: any) => 'asrMetaData' in m),
    ).toBe(false);
    const plain = await history('getMessages', {
      userId: calls[0]!.callId,
      channelType: 'ivr',
      limit: '100',
    });
    expect(r.body.messages.every((m: any) => m.callId === calls[0]!.callId)).toBe(true);
    expect(plain.body.messages.some((m: any) => 'asrMetaData' in m || 'callId' in m)).toBe(false);
  });
});
