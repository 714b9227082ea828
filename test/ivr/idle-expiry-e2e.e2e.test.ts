/**
 * Issue 31, finding 3: a browser that delivers connection.disconnect.hangup only to the top-level
 * document never runs the agent's hangup catch. The gateway closes a call that stops sending turns
 * (CALL_IDLE_TIMEOUT_S) and records it as hung up at that time; the documented customer root
 * reports the hang-up itself with <data>. The sweep is driven here by hand with a clock the test
 * moves (no wall-clock thresholds); on Redis, two instances sweep the same calls at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachStore,
  makeRedisClusterStore,
  makeRedisStore,
  redisAvailable,
  redisClusterUrl,
  testPrefix,
} from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { callHistoryReader, type HistoryMessage } from '../helpers/call-history.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { runCall } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';

const IDLE_S = 30;

/** The activity clock of the gateway under test: the test moves it; it starts in the past so history's default window holds it. */
class TestClock {
  offset = -10 * 60_000;
  readonly now = () => Date.now() + this.offset;
  advance(ms: number): number {
    this.offset += ms;
    return this.now();
  }
}

/** A customer root without the hangup catch (the snippet before issue 31). */
function rootWithoutHangupCatch(webhookUrl: string, callId: string): string {
  const src = webhookUrl.replace(/&/g, '&amp;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">',
    `<form><subdialog name="bot" src="${src}"><param name="callId" expr="'${callId}'"/><param name="message" expr="''"/>`,
    `<param name="from" expr="'+15550003333'"/><param name="to" expr="'agent'"/>`,
    '<filled><if cond="bot.endOfConversation == true"><disconnect/></if></filled></subdialog></form></vxml>',
  ].join('');
}

const last = (h: HistoryMessage[]) => h.at(-1)!;

describeEachStore('idle calls (strict-w3c caller)', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let historyOf: (callId: string) => Promise<HistoryMessage[]>;
  const clock = new TestClock();

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, config: { callIdleTimeoutS: IDLE_S }, options: { clock: clock.now } });
    app = await setupIvrApp(gw);
    historyOf = await callHistoryReader(gw, app.streamId);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when the hang-up reaches only the top-level document and the root does not report it, then the idle sweep closes the call and history records it as hung up at that time', async () => {
    const callId = `c-abandoned-${factory.name}`;
    const r = await runCall({
      rootDocument: rootWithoutHangupCatch(app.webhookUrl, callId),
      rootUrl: gw.url,
      mode: 'strict-w3c',
      hangupDelivery: 'top',
      inputs: ['book a table', '!hangup'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(r.ended).toBe('disconnect');
    // nothing told the gateway: the call is live, at the people question
    expect(r.submits.map((s) => s.params.event)).not.toContain('hangup');
    expect((await gw.gateway.sessions.load(app.streamId, callId))?.ended).toBeFalsy();
    const before = await historyOf(callId);
    expect(last(before).text).toBe('For how many people?');

    clock.advance((IDLE_S - 1) * 1000);
    await gw.gateway.sweepIdleCalls();
    expect((await gw.gateway.sessions.load(app.streamId, callId))?.ended).toBeFalsy();

    const closedAt = clock.advance(2_000);
    expect(await gw.gateway.sweepIdleCalls()).toBeGreaterThanOrEqual(1);
    const sweptBy = clock.now(); // the clock runs on: the sweep read it at some instant in between
    expect((await gw.gateway.sessions.load(app.streamId, callId))?.ended).toBe(true);
    const after = await historyOf(callId);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual([
      {
        type: 'incoming',
        text: 'hung up',
        createdOn: expect.any(String),
        tags: { hangup: 'idle' },
        lang: 'en-US',
        _id: expect.stringMatching(/^ms-/),
      },
    ]);
    const hungUpAt = Date.parse(last(after).createdOn);
    expect(hungUpAt).toBeGreaterThanOrEqual(closedAt);
    expect(hungUpAt).toBeLessThanOrEqual(sweptBy);

    // swept again, or the browser coming back with the old turn: the end is there once
    clock.advance(IDLE_S * 2000);
    await gw.gateway.sweepIdleCalls();
    const late = await gw.submit(app.webhookUrl, {
      callId,
      turn: '2',
      message: '4',
      interpretation: '4',
      confidence: '1.0',
      inputmode: 'dtmf',
    });
    expect(kindOf(late.xml)).toBe('end');
    expect((await historyOf(callId)).filter((m) => m.text === 'hung up')).toHaveLength(1);
  });

  it('when the documented root gets the hang-up, then it reports it with <data> and history records it at once', async () => {
    const callId = `c-root-hangup-${factory.name}`;
    const r = await runCall({
      webhookUrl: app.webhookUrl,
      mode: 'strict-w3c',
      callId,
      hangupDelivery: 'top',
      inputs: ['book a table', '!hangup'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(r.fetches.at(-1)).toMatchObject({
      kind: 'data',
      method: 'POST',
      status: 200,
      params: { callId, event: 'hangup' },
    });
    expect((await gw.gateway.sessions.load(app.streamId, callId))?.ended).toBe(true);
    const history = await historyOf(callId);
    expect(last(history)).toMatchObject({ type: 'incoming', text: 'hung up', tags: { hangup: 'caller' } });
    expect(history.filter((m) => m.text === 'hung up')).toHaveLength(1);
  });

  it('when a call keeps sending turns, then the sweep leaves it however long it lasts', async () => {
    const call = new IvrCall(gw, app.webhookUrl, '+15550004444', `c-busy-${factory.name}`);
    await call.start();
    for (const said of ['book a table', '4', 'march third']) {
      clock.advance((IDLE_S - 5) * 1000);
      await gw.gateway.sweepIdleCalls();
      await call.say(said, said === '4' ? { inputmode: 'dtmf', confidence: '1.0' } : {});
    }
    clock.advance((IDLE_S - 5) * 1000);
    await gw.gateway.sweepIdleCalls();
    expect((await gw.gateway.sessions.load(app.streamId, call.callId))?.ended).toBeFalsy();
    expect((await historyOf(call.callId)).map((m) => m.text)).not.toContain('hung up');
  });
});

/** Two gateway instances on one Redis (their own connections, one key prefix), sweeping at once. */
const shared = [
  { name: 'redis', available: redisAvailable(), make: (prefix: string) => makeRedisStore(prefix) },
  {
    name: 'redis-cluster',
    available: redisClusterUrl() !== '',
    make: (prefix: string) => makeRedisClusterStore(prefix),
  },
];
for (const s of shared) {
  describe.skipIf(!s.available)(`idle calls across two instances [${s.name}]`, () => {
    const clock = new TestClock();
    const stores: Store[] = [];
    const gws: RunningGateway[] = [];
    let app: IvrApp;

    beforeAll(async () => {
      const prefix = testPrefix();
      for (let i = 0; i < 2; i++) {
        const store = await s.make(prefix);
        stores.push(store);
        gws.push(
          await startGateway({ store, config: { callIdleTimeoutS: IDLE_S }, options: { clock: clock.now } }),
        );
      }
      app = await setupIvrApp(gws[0]!);
    });
    afterAll(async () => {
      for (const gw of gws) await gw.close();
      for (const store of stores) await store.close();
    });

    it('when both sweep the same idle calls at once, then each call is closed once and recorded as hung up once', async () => {
      const calls = Array.from(
        { length: 12 },
        (_, i) => new IvrCall(gws[i % 2]!, app.webhookUrl, '+15550005555', `c-shared-${s.name}-${i}`),
      );
      for (const call of calls) {
        await call.start();
        await call.say('book a table');
      }
      clock.advance((IDLE_S + 1) * 1000);
      const closed = await Promise.all([
        gws[0]!.gateway.sweepIdleCalls(),
        gws[1]!.gateway.sweepIdleCalls(),
        gws[0]!.gateway.sweepIdleCalls(),
      ]);
      expect(closed.reduce((a, b) => a + b, 0)).toBe(calls.length);
      const historyOf = await callHistoryReader(gws[1]!, app.streamId);
      for (const call of calls) {
        expect((await gws[1]!.gateway.sessions.load(app.streamId, call.callId))?.ended).toBe(true);
        expect((await historyOf(call.callId)).filter((m) => m.text === 'hung up')).toHaveLength(1);
      }
    });
  });
}
