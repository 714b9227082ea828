/**
 * Several instances of the service (separate processes) on one Redis: turns of one call go
 * round-robin across them, an instance is killed with SIGKILL in the middle, and every call
 * completes on the others with its history exact, message by message.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAgentDefinition } from '../../src/agent/index.js';
import { MODEL_ANSWER, startModelStub, type ModelStub } from './model-stub.js';
import { parseDocument, RoundRobinClient, runScriptedCall, type CallTrace } from './scripted-browser.js';
import {
  createModelConnection,
  deleteKeys,
  provisionIvrApp,
  sharedEnv,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from './gateway-processes.js';
import { BOOKING, expectBooked, expectBookingHistories, expectHistory } from './booking-call.js';

const CALLS = 50;
/**
 * A poll is held until the turn deadline before it answers a wait document, so a turn lock
 * outlives only a few of them: this many means the turn never resumed, however slow the machine.
 */
const MAX_WAITS = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!inject('redisAvailable'))('several instances on one Redis', () => {
  const redisUrl = inject('redisUrl');
  let env: Record<string, string>;
  let gateways: GatewayProcess[] = [];
  let stub: ModelStub;
  let app: ProvisionedApp;
  const alive = () => gateways.filter((g) => g.proc.alive());

  beforeAll(async () => {
    stub = await startModelStub();
    env = sharedEnv(redisUrl, { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' });
    gateways = await Promise.all([0, 1, 2].map((i) => startGatewayProcess(`gw${i}`, env)));
    const connectionId = await createModelConnection(gateways[0]!.url, env.ADMIN_TOKEN!, stub.url);
    const agent = structuredClone(demoAgentDefinition) as any;
    agent.dialogs.ask.nodes.answer.connectionId = connectionId;
    agent.dialogs.ask.nodes.answer.timeoutMs = 20_000;
    app = await provisionIvrApp(gateways[0]!.url, env.ADMIN_TOKEN!, { agent });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.proc.stop('SIGTERM')));
    await stub?.close();
    if (env) await deleteKeys(redisUrl, env.KEY_PREFIX!);
  }, 30_000);

  /** At least `n` live instances (a replacement joins when one was killed). */
  async function ensureAlive(n: number): Promise<GatewayProcess[]> {
    while (alive().length < n) gateways.push(await startGatewayProcess(`gw${gateways.length}`, env));
    return alive();
  }

  it('when one of three instances is killed with SIGKILL in the middle of 50 concurrent calls, then every call completes on the others with an exact history', async () => {
    const [gw0, victim, gw2] = await ensureAlive(3);
    const client = new RoundRobinClient([gw0!.url, victim!.url, gw2!.url]);
    const docsBeforeKill = Math.floor(CALLS * (BOOKING.length + 1) * 0.45);
    let docs = 0;
    let killedAt: number | undefined;
    const started = Date.now();
    const traces: CallTrace[] = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        runScriptedCall({
          client,
          startPath: app.webhookPath,
          callId: `call-mi-${i}-${env.KEY_PREFIX}`,
          say: BOOKING,
          onDocument: () => {
            if (++docs === docsBeforeKill) {
              killedAt = Date.now() - started;
              victim!.proc.signal('SIGKILL');
            }
          },
        }),
      ),
    );
    // the kill happened during the calls (when is for the log only)
    expect(killedAt).toBeDefined();
    expect(await victim!.proc.exited).toBe(137);
    traces.forEach(expectBooked);
    // the killed instance had requests in flight: they were sent again to the others
    expect(client.networkRetries).toBeGreaterThan(0);
    await expectBookingHistories(
      gw0!.url,
      app,
      traces.map((t) => t.callId),
    );
    console.info(
      `[multi-instance] ${CALLS} calls, ${client.requests} requests, victim killed at ${killedAt} ms after ${docsBeforeKill} documents, ` +
        `${client.networkRetries} network retries, ${traces.reduce((a, t) => a + t.waits, 0)} wait documents, ${Date.now() - started} ms`,
    );
  }, 120_000);

  it('when the instance running a slow model turn is killed, then a poll on another instance resumes the turn and the answer comes once', async () => {
    const [survivor, owner] = await ensureAlive(2);
    const client = new RoundRobinClient([survivor!.url]);
    const callId = `call-resume-${env.KEY_PREFIX}`;
    const welcome = parseDocument(
      (await client.post(app.webhookPath, { callId, message: '', from: '+15550001111', to: 'agent' })).xml,
    );
    const q = 'what are your opening hours';
    const say = await client.post(welcome.submit!.path, {
      callId,
      from: '+15550001111',
      turn: welcome.vars.turn!,
      message: q,
      interpretation: q,
      confidence: '0.9',
      inputmode: 'voice',
    });
    const sayDoc = parseDocument(say.xml);
    expect(sayDoc.spoken).toContain('Let me check that for you.');
    stub.setDelay(60_000);
    const before = stub.received();
    // event=continue goes to the owner; it dies while the model call is in flight
    const inFlight = client
      .post(sayDoc.submit!.path, { callId, turn: sayDoc.vars.turn!, event: 'continue' }, owner!.url)
      .catch((e: Error) => e);
    while (stub.received() === before) await sleep(10);
    stub.setDelay(0);
    owner!.proc.signal('SIGKILL');
    expect(await inFlight).toBeInstanceOf(Error);
    // the browser's fetch retry, then its polls, all on the survivor
    let answer = await client.post(sayDoc.submit!.path, {
      callId,
      turn: sayDoc.vars.turn!,
      event: 'continue',
    });
    let doc = parseDocument(answer.xml);
    const startedWaiting = Date.now();
    let waits = 0;
    while (doc.kind === 'wait' && waits < MAX_WAITS) {
      waits++;
      answer = await client.post(
        doc.submit!.path,
        Object.fromEntries(doc.submit!.namelist.map((n) => [n, doc.vars[n] ?? ''])),
      );
      doc = parseDocument(answer.xml);
    }
    expect(doc.kind).toBe('ask');
    expect(doc.spoken).toContain(MODEL_ANSWER);
    expect(survivor!.proc.output()).toContain('resuming a turn whose owner stopped');
    expect(stub.received()).toBe(before + 2);
    await expectHistory(survivor!.url, app, callId, [
      { turn: 0, type: 'outgoing', text: /^Welcome to Luigi's/ },
      { turn: 1, type: 'incoming', text: q },
      { turn: 1, type: 'outgoing', text: 'Let me check that for you.' },
      { turn: 2, type: 'outgoing', text: `${MODEL_ANSWER} Is there anything else I can help with?` },
    ]);
    console.info(
      `[multi-instance] resumed after ${Date.now() - startedWaiting} ms and ${waits} wait documents`,
    );
  }, 60_000);

  it('when a turn runs longer than the turn lock lives, then polls on other instances wait for its owner and the model is called once', async () => {
    const [a, b] = await ensureAlive(2);
    const client = new RoundRobinClient([b!.url, a!.url]);
    const callId = `call-long-${env.KEY_PREFIX}`;
    const welcome = parseDocument(
      (await client.post(app.webhookPath, { callId, message: '', from: '+15550001111', to: 'agent' }, a!.url))
        .xml,
    );
    const q = 'what are your opening hours';
    const say = parseDocument(
      (
        await client.post(
          welcome.submit!.path,
          {
            callId,
            from: '+15550001111',
            turn: welcome.vars.turn!,
            message: q,
            interpretation: q,
            confidence: '0.9',
            inputmode: 'voice',
          },
          a!.url,
        )
      ).xml,
    );
    stub.setDelay(7_000);
    const before = stub.received();
    const marks = [a!, b!].map((g) => g.proc.output().length);
    let doc = parseDocument(
      (await client.post(say.submit!.path, { callId, turn: say.vars.turn!, event: 'continue' }, a!.url)).xml,
    );
    let waits = 0;
    while (doc.kind === 'wait' && waits < MAX_WAITS) {
      waits++;
      doc = parseDocument(
        (
          await client.post(
            doc.submit!.path,
            Object.fromEntries(doc.submit!.namelist.map((n) => [n, doc.vars[n] ?? ''])),
          )
        ).xml,
      );
    }
    stub.setDelay(0);
    expect(doc.spoken).toContain(MODEL_ANSWER);
    expect(waits).toBeGreaterThanOrEqual(3);
    expect(stub.received()).toBe(before + 1);
    [a!, b!].forEach((g, i) =>
      expect(g.proc.output().slice(marks[i])).not.toContain('resuming a turn whose owner stopped'),
    );
  }, 60_000);
});
