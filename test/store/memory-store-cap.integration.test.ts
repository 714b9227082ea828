/**
 * The memory store bounded by MEMORY_STORE_MAX_CALLS, through the real webhook: past the bound
 * the calls that finished longest ago are dropped first, and while every kept call is live a new
 * call is refused with 503 `at_capacity` (a VoiceXML error document, Retry-After), the live calls
 * going on untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callEnded } from '../../src/ivr/index.js';
import { MemoryStore, storeKeys } from '../../src/store/index.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';

describe('the memory store with MEMORY_STORE_MAX_CALLS=3', () => {
  const store = new MemoryStore(testPrefix(), { calls: { maxCalls: 3, isFinished: callEnded } });
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    gw = await startGateway({ store });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const call = (id: string) => new IvrCall(gw, app.webhookUrl, '+15550001111', id);
  const kept = async (id: string) => (await gw.gateway.sessions.load(app.streamId, id)) !== null;
  /** A call's first request, read with its headers. */
  const firstRequest = async (id: string) => {
    const res = await fetch(app.webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ callId: id, message: '', from: '+15550001111' }).toString(),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      type: res.headers.get('content-type') ?? '',
      xml: gw.docs.add(await res.text()),
    };
  };

  let live: IvrCall[] = [];

  it('when only live calls are kept, then a new call gets 503 at_capacity with Retry-After, and the live calls go on', async () => {
    live = [call('cap-1'), call('cap-2'), call('cap-3')];
    for (const c of live) expect(kindOf(await c.start())).toBe('ask');
    const refused = await firstRequest('cap-4');
    expect(refused.status).toBe(503);
    expect(refused.type).toContain('application/voicexml+xml');
    expect(refused.xml).toContain('at_capacity');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // nothing of the refused call is kept: no session, no lock left behind
    expect(await kept('cap-4')).toBe(false);
    expect(await store.exists(storeKeys.callLock(app.streamId, 'cap-4'))).toBe(false);
    for (const c of live) expect(kindOf(await c.say('book a table'))).toBe('ask');
    expect(gw.log.text()).not.toContain('turn failed');
  });

  it('when calls have finished, then a new call drops the one that finished first, and the next the one after', async () => {
    await live[0]!.event('hangup');
    await live[1]!.event('hangup');
    expect((await gw.gateway.sessions.load(app.streamId, 'cap-1'))?.ended).toBe(true);
    expect((await gw.gateway.sessions.load(app.streamId, 'cap-2'))?.ended).toBe(true);

    expect(kindOf(await call('cap-5').start())).toBe('ask');
    expect([await kept('cap-1'), await kept('cap-2'), await kept('cap-3'), await kept('cap-5')]).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(kindOf(await call('cap-6').start())).toBe('ask');
    expect([await kept('cap-2'), await kept('cap-3'), await kept('cap-5'), await kept('cap-6')]).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect((await firstRequest('cap-7')).status).toBe(503);
  });

  it('when a kept call repeats its first request, then it is answered (it is counted once)', async () => {
    const again = await firstRequest('cap-5');
    expect(again.status).toBe(200);
    expect(kindOf(again.xml)).toBe('ask');
  });
});
