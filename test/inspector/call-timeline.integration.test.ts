import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { SseClient } from './sse-client.js';
import { demoAgentDefinition } from '../../src/agent/index.js';
import { storeKeys, type Store } from '../../src/store/index.js';

const MODEL_KEY = 'sk-stub-0123456789abcdefghij';

/** A model provider stand-in (chat completions) that answers after a delay the test sets. */
async function startModelStub() {
  let delayMs = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            choices: [{ message: { content: 'We are open from noon to eleven.' } }],
            usage: { prompt_tokens: 21, completion_tokens: 9 },
          }),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
    setDelay: (ms: number) => (delayMs = ms),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describeEachStore('call inspector timeline', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let stub: Awaited<ReturnType<typeof startModelStub>>;
  let connectionId: string;

  beforeAll(async () => {
    store = await factory.make();
    stub = await startModelStub();
    gw = await startGateway({
      store,
      config: { allowPrivateModelEndpoints: true, turnDeadlineMs: 400, callTraceMaxTurns: 50 },
    });
    const key = await gw.admin('POST', '/api/admin/api-keys', {
      name: 'k',
      scopes: ['connections:manage', 'connections:view'],
    });
    const conn = await fetch(`${gw.url}/api/public/connections`, {
      method: 'POST',
      headers: { 'x-api-key': key.body.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        provider: 'API',
        connectionName: 'Local model',
        model: 'stub-1',
        fields: {},
        promptVars: [],
        customVars: [],
        endpointUrl: stub.url,
        headers: [{ key: 'Authorization', value: `Bearer ${MODEL_KEY}` }],
        payload: { model: 'stub-1', max_tokens: 100, messages: [{ role: 'user', content: '{{prompt}}' }] },
        outputPath: 'choices[0].message.content',
        inputTokensPath: 'usage.prompt_tokens',
        outputTokensPath: 'usage.completion_tokens',
        status: 'FINALIZED',
        isEnable: true,
      }),
    });
    expect(conn.status).toBe(201);
    connectionId = ((await conn.json()) as { connectionId: string }).connectionId;
    const agent = structuredClone(demoAgentDefinition) as any;
    agent.dialogs.ask.nodes.answer.connectionId = connectionId;
    app = await setupIvrApp(gw, { agent, settings: { confidenceThreshold: 50 } });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await stub.close();
    await store.close();
  });

  const timeline = async (callId: string) => {
    const r = await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls/${encodeURIComponent(callId)}`);
    expect(r.status).toBe(200);
    return r.body as { call: any; turns: any[] };
  };

  it('when a booking call has a no-match, a low-confidence number and a confirmation, then its timeline shows each with its reason and rule', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('I want to book a table');
    expect(kindOf(await call.say('purple', { confidence: '0.900000' }))).toBe('ask');
    await call.say('cheese', { confidence: '0.300000' });
    await call.say('4', { confidence: '0.550000' });
    await call.say('yes');
    const { call: summary, turns } = await timeline(call.callId);
    expect(summary).toMatchObject({
      callId: call.callId,
      from: call.from,
      outcome: 'live',
      hasError: false,
      turns: 6,
    });
    expect(turns.map((t) => t.turn)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(turns[0]).toMatchObject({
      event: 'start',
      document: { kind: 'ask' },
      instance: gw.config.instanceId,
    });
    expect(turns[0].document.xml).toContain('<vxml');
    expect(turns[0].document.xml).toContain('token=redacted');
    expect(turns[1].recognition).toMatchObject({ intent: 'BookTable' });
    expect(turns[1]).toMatchObject({ dialog: 'book', node: 'size' });
    expect(turns[2]).toMatchObject({
      nomatch: { kind: 'nomatch', reason: 'no_match' },
      node: 'size',
      asr: { utterance: 'purple' },
    });
    expect(turns[3]).toMatchObject({
      nomatch: { kind: 'nomatch', reason: 'below_threshold' },
      asr: { confidence: '0.300000', belowThreshold: true },
    });
    expect(turns[4]).toMatchObject({
      entities: { size: 4 },
      node: 'confirmSize',
      rules: [{ node: 'book.size', rule: 0, goto: 'confirmSize' }],
    });
    expect(turns[5]).toMatchObject({
      node: 'date',
      rules: [{ node: 'book.confirmSize', rule: 0, goto: 'date' }],
    });
    for (const t of turns) {
      expect(Object.keys(t.timing).sort()).toEqual(['agentMs', 'modelMs', 'renderMs', 'storeMs']);
      expect(t.request.callId).toBe(call.callId);
      expect(t.request.token).toBeUndefined();
    }
  });

  it("when an utterance falls back to the fallback dialog, then its turn's trace says why", async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('banana');
    const { turns } = await timeline(call.callId);
    const fell = turns[1];
    expect(fell).toMatchObject({
      recognition: { intent: 'None' },
      decision: { outcome: 'reject' },
      dialog: null,
    });
    expect(fell.path).toEqual(expect.arrayContaining(['fallback.sorry']));
    // the recognizer's own reason, as the decision took it
    expect(['out_of_scope', 'below_threshold']).toContain(fell.fallback?.reason);
    expect(fell.fallback).toEqual({ reason: fell.recognition.rejection ?? 'below_threshold' });
    expect(turns[0].fallback).toBeUndefined();
  });

  it('when a caller is transferred and the transfer comes back busy, then the timeline has the transfer result and the rule it took', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    expect(kindOf(await call.say('transfer me'))).toBe('transfer');
    await call.event('transfer', { transferResult: 'busy' });
    await call.event('hangup');
    const { call: summary, turns } = await timeline(call.callId);
    expect(turns[1]).toMatchObject({ document: { kind: 'transfer' }, answer: { action: 'transfer' } });
    expect(turns[2]).toMatchObject({
      event: 'transfer',
      transferResult: 'busy',
      rules: [{ node: 'human.transfer', rule: 1, goto: 'unavailable' }],
    });
    expect(turns[3]).toMatchObject({ event: 'hangup' });
    expect(summary).toMatchObject({ outcome: 'transferred', transferred: true });
  });

  it('when the model is slower than the turn deadline, then the timeline shows the wait document, the late turn with its model call, and the delivery on a poll', async () => {
    stub.setDelay(1_000);
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('what are your opening hours');
    let doc = await call.event('continue');
    expect(kindOf(doc)).toBe('wait');
    for (let i = 0; i < 20 && kindOf(doc) === 'wait'; i++) doc = await call.event('poll');
    expect(kindOf(doc)).toBe('ask');
    stub.setDelay(0);
    const { turns } = await timeline(call.callId);
    const waited = turns.find((t) => t.marks.includes('wait') && t.event === 'continue');
    expect(waited).toMatchObject({ turn: 2, document: { kind: 'wait' } });
    const late = turns.find((t) => t.marks.includes('late'));
    expect(late).toMatchObject({ turn: 2, event: 'continue', document: { kind: 'ask' } });
    expect(late.modelCalls).toEqual([
      expect.objectContaining({ connectionId, outcome: 'ok', inputTokens: 21, outputTokens: 9 }),
    ]);
    expect(late.timing.modelMs).toBeGreaterThan(0);
    expect(turns.find((t) => t.marks.includes('delivered'))).toMatchObject({
      event: 'poll',
      document: { kind: 'ask' },
    });
    // what the store holds for the call and the app: no webhook token, no model key
    const stored = JSON.stringify([
      await store.lrange(storeKeys.callTrace(app.streamId, call.callId), 0, -1),
      await store.hgetall(storeKeys.callSummary(app.streamId, call.callId)),
    ]);
    expect(stored).toContain('opening hours');
    expect(stored.includes(MODEL_KEY)).toBe(false);
    expect(stored.includes(app.token)).toBe(false);
    expect(stored.includes(encodeURIComponent(app.token))).toBe(false);
    const reader = await store.streamReader();
    try {
      const feed = JSON.stringify(await reader.read(storeKeys.callFeed(app.streamId), '0-0', 10_000, 10));
      expect(feed).toContain(call.callId);
      expect(feed.includes(MODEL_KEY)).toBe(false);
      expect(feed.includes(app.token)).toBe(false);
    } finally {
      await reader.close();
    }
  });

  it('when a call is traced, then its trace and summary expire after CALL_TRACE_TTL_S', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    // traces are written after the answer, batched: a read through the inspector writes this instance's first
    await timeline(call.callId);
    const ttlMs = gw.config.callTraceTtlS * 1000;
    for (const key of [
      storeKeys.callTrace(app.streamId, call.callId),
      storeKeys.callSummary(app.streamId, call.callId),
      storeKeys.callIndex(app.streamId),
    ]) {
      const pttl = await store.pttl(key);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(ttlMs);
    }
  });

  it('when calls are listed, then they come newest first, filter by outcome, from and turns, and page by cursor', async () => {
    const a = new IvrCall(gw, app.webhookUrl, '+15550002222');
    await a.start();
    await a.event('hangup');
    const b = new IvrCall(gw, app.webhookUrl, '+15550003333');
    await b.start();
    const all = await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls?limit=100`);
    expect(all.status).toBe(200);
    const ids = all.body.calls.map((c: any) => c.callId);
    expect(ids.indexOf(b.callId)).toBeLessThan(ids.indexOf(a.callId));
    const starts = all.body.calls.map((c: any) => c.startedAt);
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);
    const hungUp = await gw.admin(
      'GET',
      `/api/admin/apps/${app.streamId}/calls?outcome=hungup&from=${encodeURIComponent('+15550002222')}`,
    );
    expect(hungUp.body.calls.map((c: any) => c.callId)).toEqual([a.callId]);
    const live = await gw.admin(
      'GET',
      `/api/admin/apps/${app.streamId}/calls?outcome=live&minTurns=1&from=${encodeURIComponent('+15550003333')}`,
    );
    expect(live.body.calls.map((c: any) => c.callId)).toEqual([b.callId]);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await gw.admin(
        'GET',
        `/api/admin/apps/${app.streamId}/calls?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.body.calls.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.calls.map((c: any) => c.callId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(ids);
    expect((await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls?cursor=nope`)).status).toBe(400);
    expect((await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls/unknown-call`)).status).toBe(404);
  });

  it('when a call has more turns than CALL_TRACE_MAX_TURNS, then only the newest traces are kept', async () => {
    const small = await startGateway({
      store,
      config: { callTraceMaxTurns: 3, masterKey: gw.config.masterKey },
    });
    try {
      const call = new IvrCall(small, app.webhookUrl.replace(gw.url, small.url));
      await call.start();
      for (const word of ['purple', 'green', 'blue', 'red']) await call.say(word);
      const r = await small.admin('GET', `/api/admin/apps/${app.streamId}/calls/${call.callId}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.turns.map((t: any) => t.turn)).toEqual([2, 3, 4]);
      // what the opening turns alone write is still in the summary after later turns
      expect(r.body.call).toMatchObject({ callId: call.callId, turns: 5, outcome: 'live' });
      expect(r.body.call.startedAt).toBeGreaterThan(0);
      // the feed from its start: the turns whose traces were dropped keep their turn and arrival only
      const feed = await SseClient.open(
        `${small.url}/api/admin/apps/${app.streamId}/calls/feed?callId=${call.callId}`,
        { Authorization: `Bearer ${small.config.adminToken}`, 'Last-Event-ID': '0-0' },
      );
      try {
        const events = [];
        for (let i = 0; i < 5; i++) events.push(JSON.parse((await feed.next()).data));
        expect(events.map((e) => e.trace.turn)).toEqual([0, 1, 2, 3, 4]);
        expect(events[0]).toEqual({
          callId: call.callId,
          trace: { callId: call.callId, turn: 0, receivedAt: expect.any(Number) },
          summary: expect.objectContaining({ callId: call.callId, turns: 1 }),
        });
        expect(events[4].trace).toMatchObject({
          turn: 4,
          event: 'input',
          document: { kind: expect.any(String) },
        });
        expect(events[4].trace.document.xml).toBeUndefined();
        expect(events[4].summary).toMatchObject({ callId: call.callId, turns: 5 });
      } finally {
        feed.close();
      }
    } finally {
      await small.close();
    }
  });

  it('when the gateway closes an idle call, then the timeline ends with a hangup marked idle and the call is listed as hung up', async () => {
    let now = Date.now();
    const clocked = await startGateway({
      store,
      config: { masterKey: gw.config.masterKey, callIdleTimeoutS: 30 },
      options: { clock: () => now },
    });
    try {
      const call = new IvrCall(clocked, app.webhookUrl.replace(gw.url, clocked.url));
      await call.start();
      now += 31_000;
      expect(await clocked.gateway.sweepIdleCalls()).toBeGreaterThanOrEqual(1);
      const r = await clocked.admin('GET', `/api/admin/apps/${app.streamId}/calls/${call.callId}`);
      expect(r.body.turns.at(-1)).toMatchObject({ event: 'hangup', marks: ['idle'], turn: 1 });
      expect(r.body.call).toMatchObject({ outcome: 'hungup', turns: 2 });
    } finally {
      await clocked.close();
    }
  });
});
