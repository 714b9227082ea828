/**
 * Issue 29, point 1: a connection reset in the middle of a turn. A proxy in front of the service
 * forwards a turn, lets the service answer it, and resets the browser's connection instead of
 * passing the answer on (an instance that died before answering, or a load balancer). The
 * project's caller in strict-w3c mode raises error.badfetch for it, and the document's catch sends
 * the same turn again after a pause: the service answers it from the stored answer, the call goes
 * on to its end, and the turn is in history once. The same for a poll of a wait document.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { runCall } from '../../sandbox/index.js';
import { demoAgentDefinition } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';
import { BOOKING_HISTORY, expectHistory } from './booking-call.js';
import {
  callHistory,
  createModelConnection,
  provisionIvrApp,
  type ProvisionedApp,
} from './gateway-processes.js';
import { MODEL_ANSWER, startModelStub, type ModelStub } from './model-stub.js';
import { startResetProxy, type ResetProxy } from './reset-proxy.js';

describeEachStore('a connection reset before the answer', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let proxy: ResetProxy;
  let model: ModelStub;
  let booking: ProvisionedApp;
  let questions: ProvisionedApp;

  beforeAll(async () => {
    store = await factory.make();
    // a short turn deadline, so that a slow model turn answers wait documents and is polled
    gw = await startGateway({ store, config: { turnDeadlineMs: 300, allowPrivateModelEndpoints: true } });
    proxy = await startResetProxy(Number(new URL(gw.url).port));
    model = await startModelStub();
    booking = await provisionIvrApp(gw.url, gw.config.adminToken);
    const agent = structuredClone(demoAgentDefinition) as any;
    agent.dialogs.ask.nodes.answer.connectionId = await createModelConnection(
      gw.url,
      gw.config.adminToken,
      model.url,
    );
    questions = await provisionIvrApp(gw.url, gw.config.adminToken, { agent });
  }, 60_000);
  afterAll(async () => {
    await gw.docs.validateAll();
    await proxy.close();
    await model.close();
    await gw.close();
    await store.close();
  });

  const call = (app: ProvisionedApp, callId: string, inputs: string[]) =>
    runCall({
      webhookUrl: `${proxy.url}${app.webhookPath}`,
      mode: 'strict-w3c',
      callId,
      inputs,
      fetch: gw.docs.fetch(),
      plain: true,
    });

  it("when the answer to a caller's turn is lost to a reset, then the document sends the same turn again, the call ends booked and the turn is in history once", async () => {
    const callId = `c-reset-turn-${factory.name}`;
    proxy.resetNext((r) => r.params.callId === callId && r.params.message === 'book a table');
    const r = await call(booking, callId, ['book a table', '#4', 'march third', 'yes']);

    expect(r.failure ?? r.error).toBeUndefined();
    expect(r.result?.endOfConversation).toBe(true);
    expect(r.spoken.join(' ')).toContain('Your table for 4 is booked.');
    // the turn reached the service twice, the first answer dropped by the reset, with the same values
    const sent = proxy.log.filter((l) => l.params.callId === callId && l.params.message === 'book a table');
    expect(sent.map((l) => [l.status, l.reset])).toEqual([
      [200, true],
      [200, false],
    ]);
    expect(sent[1]!.params).toEqual(sent[0]!.params);
    expect(sent[0]!.params.turn).toBe('1');
    expect(r.events.filter((e) => e.name.startsWith('error.badfetch')).map((e) => e.caught)).toEqual([true]);
    await expectHistory(gw.url, booking, callId, BOOKING_HISTORY);
  });

  it("when the answer to a poll is lost to a reset, then the wait document polls again and the model's answer comes once", async () => {
    const callId = `c-reset-poll-${factory.name}`;
    model.setDelay(900);
    const calledBefore = model.received();
    proxy.resetNext((r) => r.params.callId === callId && r.params.event === 'poll');
    const r = await call(questions, callId, [
      'what are your opening hours',
      'book a table',
      '#4',
      'march third',
      'yes',
    ]);
    model.setDelay(0);

    expect(r.failure ?? r.error).toBeUndefined();
    expect(r.result?.endOfConversation).toBe(true);
    const polls = proxy.log.filter((l) => l.params.callId === callId && l.params.event === 'poll');
    const reset = polls.findIndex((l) => l.reset);
    expect(reset).toBeGreaterThanOrEqual(0);
    // the poll after the reset is the same request again
    expect(polls[reset + 1]!.params).toEqual(polls[reset]!.params);
    expect(r.spoken.filter((s) => s.includes(MODEL_ANSWER))).toHaveLength(1);
    expect(model.received() - calledBefore).toBe(1);
    const history = await callHistory(gw.url, questions, callId);
    expect(history.filter((l) => l.text.includes(MODEL_ANSWER))).toHaveLength(1);
    expect(history.filter((l) => l.type === 'incoming').map((l) => l.text)).toEqual([
      'what are your opening hours',
      'book a table',
      '4',
      'march third',
      'yes',
    ]);
  });
});
