/**
 * The operator's view of sandbox lockouts: which number, address or caller is slowed or locked
 * and until when, and ending them so a tester gets in again at once. Wrong PINs come from real
 * client addresses (127/8 source addresses), as in sandbox-limits.integration.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox-line/index.js';
import type { Store } from '../../src/store/index.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { send } from './raw-http.js';

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';

interface Line {
  gw: RunningGateway;
  streamId: string;
  phoneNumber: string;
  pin: string;
  secret: string;
}

type Outcome = 'checked' | 'slowed' | 'locked' | 'connected' | 'other';
const outcome = (xml: string): Outcome =>
  xml.includes('<subdialog')
    ? 'connected'
    : xml.includes('did not match')
      ? 'checked'
      : xml.includes('Please wait a minute')
        ? 'slowed'
        : xml.includes('This line is locked')
          ? 'locked'
          : 'other';

describeEachStore('sandbox lockouts for operators', 'api', (factory) => {
  let store: Store;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    store = await factory.make();
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
    await store.close();
  });

  /** A gateway with these limits (one per test: limits are the gateway's), and an app with a sandbox on it. */
  async function open(sandbox: SandboxOptions, gw?: RunningGateway): Promise<Line> {
    if (!gw) {
      gw = await startGateway({ store, options: { sandbox } });
      gateways.push(gw);
    }
    const streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Lockouts' })).body
      .streamId as string;
    const sb = (
      await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, {
        enabled: true,
        maxConcurrentCalls: 20,
      })
    ).body;
    return { gw, streamId, phoneNumber: sb.phoneNumber, pin: sb.pin, secret: sb.secret };
  }

  async function tryPin(line: Line, o: { from: string; address: string; right?: boolean }): Promise<Outcome> {
    const path = `/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}`;
    const callId = `sb-${Math.random().toString(36).slice(2)}`;
    const post = (p: string, params: Record<string, string>) =>
      send(line.gw.url, {
        method: 'POST',
        path: p,
        localAddress: o.address,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
    const entry = await post(path, { from: o.from, callId });
    if (!entry.text.includes('<field')) return outcome(entry.text);
    const login = await post(`${path}?step=login&callId=${callId}&from=${encodeURIComponent(o.from)}`, {
      attempt: attemptOf(entry.text),
      pin: o.right ? line.pin : '000000',
      secret: o.right ? line.secret : '00000000',
    });
    return outcome(login.text);
  }

  const lockoutsOf = async (line: Line) =>
    (await line.gw.admin('GET', `/api/admin/apps/${line.streamId}/ivr-sandbox/lockouts`)).body;
  const clear = (line: Line, query = '') =>
    line.gw.admin('DELETE', `/api/admin/apps/${line.streamId}/ivr-sandbox/lockouts${query}`);
  // `until` is read again on each request (now + the time left), so it may move by a millisecond
  const withoutUntil = ({ until: _until, ...rest }: Record<string, unknown>) => rest;
  const soon = (iso: string, withinS: number) => {
    const t = Date.parse(iso);
    return t > Date.now() && t <= Date.now() + withinS * 1000 + 2_000;
  };

  it('when a caller is locked out, then the operator sees its number, address, from and until when, and clearing it lets that caller in at once', async () => {
    const line = await open({
      lockoutS: 600,
      limits: { numberSlow: { points: 100, durationS: 60 }, numberLock: { points: 100, durationS: 60 } },
    });
    const who = { from: '+15550900001', address: '127.0.21.1' };
    const tries: Outcome[] = [];
    for (let i = 0; i < 5; i++) tries.push(await tryPin(line, who));
    expect(tries).toEqual(['checked', 'checked', 'checked', 'checked', 'locked']);
    expect(await tryPin(line, { ...who, right: true })).toBe('locked');

    const listed = await lockoutsOf(line);
    expect(listed.phoneNumber).toBe(line.phoneNumber);
    expect(listed.truncated).toBe(false);
    const mine = listed.lockouts.filter((l: { kind: string }) => l.kind === 'caller');
    expect(mine).toEqual([
      {
        kind: 'caller',
        state: 'locked',
        phoneNumber: line.phoneNumber,
        address: who.address,
        from: who.from,
        wrongEntries: 5,
        until: expect.any(String),
      },
    ]);
    expect(soon(mine[0].until, 600)).toBe(true);

    const cleared = await clear(line, `?kind=caller&from=${encodeURIComponent(who.from)}`);
    expect(cleared.status).toBe(200);
    expect(cleared.body.cleared.map(withoutUntil)).toEqual(mine.map(withoutUntil));
    expect((await lockoutsOf(line)).lockouts.filter((l: { kind: string }) => l.kind === 'caller')).toEqual(
      [],
    );
    expect(await tryPin(line, { ...who, right: true })).toBe('connected');
  });

  it('when the number is slowed, then it is listed as slowed with its wrong entries, and clearing everything lets the tester in', async () => {
    const line = await open({
      limits: { numberSlow: { points: 3, durationS: 60 }, numberLock: { points: 100, durationS: 60 } },
    });
    const tries: Outcome[] = [];
    for (let i = 0; i < 4; i++)
      tries.push(await tryPin(line, { from: `+1555091000${i}`, address: `127.0.22.${10 + i}` }));
    expect(tries).toEqual(['checked', 'checked', 'checked', 'slowed']);
    const tester = { from: '+15550910099', address: '127.0.22.99', right: true };
    expect(await tryPin(line, tester)).toBe('slowed');

    const number = (await lockoutsOf(line)).lockouts.filter((l: { kind: string }) => l.kind === 'number');
    expect(number).toEqual([
      {
        kind: 'number',
        state: 'slowed',
        phoneNumber: line.phoneNumber,
        wrongEntries: 4,
        until: expect.any(String),
      },
    ]);
    expect(soon(number[0].until, 60)).toBe(true);

    const cleared = await clear(line);
    expect(cleared.body.cleared.map(withoutUntil)).toContainEqual(withoutUntil(number[0]));
    expect((await lockoutsOf(line)).lockouts.filter((l: { kind: string }) => l.kind === 'number')).toEqual(
      [],
    );
    expect(await tryPin(line, tester)).toBe('connected');
  });

  it('when an address is locked, then every app with a sandbox lists it, and clearing that address ends only its lockout', async () => {
    const sandbox: SandboxOptions = {
      limits: {
        address: { points: 5, durationS: 600, blockDurationS: 600 },
        numberSlow: { points: 100, durationS: 60 },
        numberLock: { points: 100, durationS: 60 },
      },
    };
    const line = await open(sandbox);
    const other = await open(sandbox, line.gw);
    const address = '127.0.23.1';
    const tries: Outcome[] = [];
    for (let i = 0; i < 6; i++) tries.push(await tryPin(line, { from: `+1555092000${i}`, address }));
    expect(tries).toEqual(['checked', 'checked', 'checked', 'checked', 'checked', 'locked']);
    // a caller locked from another address stays locked
    for (let i = 0; i < 5; i++) await tryPin(line, { from: '+15550920099', address: '127.0.23.2' });

    const byAddress = (list: Array<{ kind: string; address?: string }>) =>
      list.filter((l) => l.kind === 'address' && l.address === address);
    expect(byAddress((await lockoutsOf(line)).lockouts)).toEqual([
      { kind: 'address', state: 'locked', address, wrongEntries: 6, until: expect.any(String) },
    ]);
    expect(byAddress((await lockoutsOf(other)).lockouts)).toHaveLength(1);

    const cleared = await clear(line, `?kind=address&address=${address}`);
    expect(cleared.body.cleared.map((l: { kind: string; address: string }) => [l.kind, l.address])).toEqual([
      ['address', address],
    ]);
    expect(byAddress((await lockoutsOf(line)).lockouts)).toEqual([]);
    expect((await lockoutsOf(line)).lockouts).toContainEqual(
      expect.objectContaining({ kind: 'caller', address: '127.0.23.2', from: '+15550920099' }),
    );
    expect(await tryPin(line, { from: '+15550920000', address, right: true })).toBe('connected');
  });

  it('when the app has no sandbox, the query has an unknown member, or the admin token is missing, then 404, 400 and 401', async () => {
    const gw = gateways[0]!;
    const bare = (await gw.admin('POST', '/api/admin/apps', { name: 'No sandbox' })).body.streamId as string;
    expect((await gw.admin('GET', `/api/admin/apps/${bare}/ivr-sandbox/lockouts`)).status).toBe(404);
    const line = await open({}, gw);
    const typo = await gw.admin(
      'DELETE',
      `/api/admin/apps/${line.streamId}/ivr-sandbox/lockouts?kidn=caller`,
    );
    expect(typo.status).toBe(400);
    expect(typo.body.errors[0].path).toMatch(/^query/);
    expect(typo.body.errors[0].msg).toContain('kidn');
    expect((await fetch(`${gw.url}/api/admin/apps/${line.streamId}/ivr-sandbox/lockouts`)).status).toBe(401);
  });
});
