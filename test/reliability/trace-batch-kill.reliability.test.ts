/**
 * Traces are written after the answer, batched across turns (issue 39, item 1): an instance killed
 * with SIGKILL right after a call's last answer loses at most the traces it had not written yet (at
 * most one batch) and the traces in the store are the call's first turns, in order, without a hole;
 * an instance stopped with SIGTERM writes every trace it buffered before it exits.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisStore, storeKeys } from '../../src/store/index.js';
import { TRACE_BATCH_DEFAULTS } from '../../src/inspector/index.js';
import { IvrCall } from '../helpers/ivr-call.js';
import type { RunningGateway } from '../helpers/test-gateway.js';
import {
  deleteKeys,
  provisionIvrApp,
  sharedEnv,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from './gateway-processes.js';

const TURNS = 40;

describe.runIf(inject('redisAvailable'))('trace batches across a kill', () => {
  const env = sharedEnv(inject('redisUrl'));
  let store: RedisStore;
  let app: ProvisionedApp;
  const started: GatewayProcess[] = [];

  const start = async (name: string) => {
    const gw = await startGatewayProcess(name, env);
    started.push(gw);
    return gw;
  };
  /** A call of `turns` turns on `gw`, each answered before the next is sent. */
  const runCall = async (gw: GatewayProcess, turns: number): Promise<string> => {
    const submit = async (url: string, params: Record<string, string>) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      return { status: res.status, xml: await res.text() };
    };
    const call = new IvrCall({ submit } as unknown as RunningGateway, gw.url + app.webhookPath);
    // a turn that outlives its deadline on a loaded machine answers a wait document: poll as a browser would
    const settled = async () => {
      while (call.last.includes('<form id="wait">')) await call.event('poll');
    };
    await call.start();
    await settled();
    for (let i = 1; i < turns; i++) {
      await call.say(i % 2 ? 'what are your opening hours' : 'I want to book a table');
      await settled();
      expect(call.lastStatus).toBe(200);
      expect(call.turn, call.last).toBe(String(i + 1));
    }
    return call.callId;
  };
  /** The turns of a call's traces in the order stored (a wait and its polls trace the same turn again). */
  const tracedTurns = async (callId: string): Promise<number[]> =>
    (await store.lrange(storeKeys.callTrace(app.streamId, callId), 0, -1)).map(
      (t) => (JSON.parse(t) as { turn: number }).turn,
    );
  const inOrder = (turns: number[]) =>
    turns.every((t, i) => i === 0 || t === turns[i - 1] || t === turns[i - 1]! + 1);

  beforeAll(async () => {
    store = await RedisStore.connect({ url: inject('redisUrl'), prefix: env.KEY_PREFIX! });
    const first = await start('provision');
    app = await provisionIvrApp(first.url, env.ADMIN_TOKEN!);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map((g) => g.proc.stop('SIGKILL')));
    await store?.close();
    await deleteKeys(inject('redisUrl'), env.KEY_PREFIX!);
  }, 30_000);

  it('when an instance is killed right after a call, then the traces written are its first turns in order and at most one batch is lost', async () => {
    const gw = await start('victim');
    const callId = await runCall(gw, TURNS);
    gw.proc.signal('SIGKILL');
    await gw.proc.exited;
    const turns = await tracedTurns(callId);
    // the first turns, in order, no turn missing between two that were written
    expect(turns[0] ?? 0).toBe(0);
    expect(inOrder(turns), turns.join(',')).toBe(true);
    const lost = TURNS - new Set(turns).size;
    expect(lost).toBeLessThanOrEqual(TRACE_BATCH_DEFAULTS.maxBatch);
  }, 120_000);

  it('when an instance is stopped with SIGTERM right after a call, then every turn of it is traced', async () => {
    const gw = await start('graceful');
    const callId = await runCall(gw, TURNS);
    expect(await gw.proc.stop('SIGTERM', 20_000)).toBe(0);
    const turns = await tracedTurns(callId);
    expect(inOrder(turns), turns.join(',')).toBe(true);
    expect([...new Set(turns)]).toEqual([...Array(TURNS).keys()]);
  }, 120_000);
});
