/**
 * The sandbox's unauthenticated entry and its PIN check under attack: wrong PINs are limited per
 * sandbox number (slowed, then a short lockout that ends by itself), per client address (honouring
 * a trusted proxy's X-Forwarded-For) and per caller, never by the caller-supplied `from` alone; the
 * entry is limited per address, answers every number alike and stores nothing per request.
 * Different client addresses are real: requests leave from different 127/8 source addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Config } from '../../src/platform/index.js';
import type { SandboxOptions } from '../../src/sandbox-line/index.js';
import type { Store } from '../../src/store/index.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import {
  describeEachStore,
  makeRedisStore,
  redisAvailable,
  redisUrl,
  testPrefix,
} from '../helpers/test-stores.js';
import { send } from './raw-http.js';

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';
const CHECKED = 'did not match';
const SLOWED = 'Please wait a minute';
const LOCKED = 'This line is locked';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Line {
  gw: RunningGateway;
  streamId: string;
  phoneNumber: string;
  pin: string;
  secret: string;
}

/** A gateway with the given sandbox limits, and an app with a sandbox line on it. */
async function openLine(store: Store, sandbox: SandboxOptions, config: Partial<Config> = {}): Promise<Line> {
  const gw = await startGateway({ store, config, options: { sandbox } });
  const streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Sandbox limits' })).body
    .streamId as string;
  const sb = (
    await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 20,
    })
  ).body;
  return { gw, streamId, phoneNumber: sb.phoneNumber, pin: sb.pin, secret: sb.secret };
}

async function post(
  line: Line,
  path: string,
  params: Record<string, string>,
  address: string,
  headers: Record<string, string> = {},
) {
  const r = await send(line.gw.url, {
    method: 'POST',
    path,
    localAddress: address,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  if (r.contentType.includes('voicexml')) line.gw.docs.add(r.text);
  return r;
}

const entryPath = (phoneNumber: string) => `/ivr/sandbox/${encodeURIComponent(phoneNumber)}`;

/** One call: the entry, then a PIN and secret. Answers the last document. */
async function tryPin(
  line: Line,
  o: {
    from: string;
    address: string;
    pin: string;
    secret: string;
    callId?: string;
    headers?: Record<string, string>;
  },
): Promise<string> {
  const callId = o.callId ?? `sb-${Math.random().toString(36).slice(2)}`;
  const entry = await post(line, entryPath(line.phoneNumber), { from: o.from, callId }, o.address, o.headers);
  expect(entry.status).toBe(200);
  if (!entry.text.includes('<field')) return entry.text;
  const login = await post(
    line,
    `${entryPath(line.phoneNumber)}?step=login&callId=${callId}&from=${encodeURIComponent(o.from)}`,
    { attempt: attemptOf(entry.text), pin: o.pin, secret: o.secret },
    o.address,
    o.headers,
  );
  return login.text;
}

const wrong = (from: string, address: string, headers?: Record<string, string>) => ({
  from,
  address,
  pin: '000000',
  secret: '00000000',
  ...(headers ? { headers } : {}),
});
const outcome = (xml: string): 'checked' | 'slowed' | 'locked' | 'connected' | 'other' =>
  xml.includes('<subdialog')
    ? 'connected'
    : xml.includes(CHECKED)
      ? 'checked'
      : xml.includes(SLOWED)
        ? 'slowed'
        : xml.includes(LOCKED)
          ? 'locked'
          : 'other';

describeEachStore('sandbox limits', 'api', (factory) => {
  let store: Store;
  const lines: Line[] = [];
  const open = async (sandbox: SandboxOptions, config: Partial<Config> = {}) => {
    const line = await openLine(store, sandbox, config);
    lines.push(line);
    return line;
  };
  beforeAll(async () => {
    store = await factory.make();
  });
  afterAll(async () => {
    for (const line of lines) {
      await line.gw.docs.validateAll();
      await line.gw.close();
    }
    await store.close();
  });

  it('when 30 wrong PINs come, each with another from and from another address, then 10 are checked and the rest find the number slowed (the tester too, for that minute)', async () => {
    const line = await open({ limits: { numberLock: { points: 1000, durationS: 60, blockDurationS: 1 } } });
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++)
      outcomes.push(
        outcome(await tryPin(line, wrong(`+1555010${String(i).padStart(4, '0')}`, `127.0.2.${10 + i}`))),
      );
    expect(outcomes.filter((o) => o === 'checked')).toHaveLength(10);
    expect(outcomes.slice(10).every((o) => o === 'slowed')).toBe(true);
    expect(
      outcome(
        await tryPin(line, {
          from: '+15550200001',
          address: '127.0.2.200',
          pin: line.pin,
          secret: line.secret,
        }),
      ),
    ).toBe('slowed');
  });

  it('when wrong PINs from many addresses pass the longer limit, then the number is locked for a short time that ends by itself, and then the tester gets in', async () => {
    const line = await open({
      limits: {
        numberSlow: { points: 100, durationS: 60 },
        numberLock: { points: 5, durationS: 60, blockDurationS: 3 },
      },
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++)
      outcomes.push(
        outcome(await tryPin(line, wrong(`+1555020${String(i).padStart(4, '0')}`, `127.0.5.${10 + i}`))),
      );
    expect(outcomes).toEqual(['checked', 'checked', 'checked', 'checked', 'checked', 'locked']);
    const tester = { from: '+15550200002', address: '127.0.5.200', pin: line.pin, secret: line.secret };
    expect(outcome(await tryPin(line, tester))).toBe('locked');
    let after = 'locked';
    for (let i = 0; i < 40 && after === 'locked'; i++) {
      await sleep(250);
      after = outcome(await tryPin(line, { ...tester, callId: `sb-after-${i}` }));
    }
    expect(after).toBe('connected');
  });

  it("when a stranger sends a tester's from from another address and keeps failing, then only the stranger is locked out, and the tester gets in", async () => {
    const line = await open({});
    const from = '+15550300001';
    const stranger: string[] = [];
    for (let i = 0; i < 9; i++) stranger.push(outcome(await tryPin(line, wrong(from, '127.0.3.1'))));
    expect(stranger).toEqual([
      'checked',
      'checked',
      'checked',
      'checked',
      'locked',
      'locked',
      'locked',
      'locked',
      'locked',
    ]);
    expect(
      outcome(await tryPin(line, { from, address: '127.0.3.2', pin: line.pin, secret: line.secret })),
    ).toBe('connected');
    // the stranger's refused attempts counted no further: the number is not slowed for others
    expect(outcome(await tryPin(line, wrong('+15550300002', '127.0.3.3')))).toBe('checked');
  });

  it('when one address sends wrong PINs under many froms, then that address is locked after 20', async () => {
    const line = await open({
      limits: { numberSlow: { points: 100, durationS: 60 }, numberLock: { points: 100, durationS: 60 } },
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 22; i++)
      outcomes.push(outcome(await tryPin(line, wrong(`+1555040${String(i).padStart(4, '0')}`, '127.0.6.1'))));
    expect(outcomes.slice(0, 20).every((o) => o === 'checked')).toBe(true);
    expect(outcomes.slice(20)).toEqual(['locked', 'locked']);
    expect(
      outcome(
        await tryPin(line, {
          from: '+15550400099',
          address: '127.0.6.2',
          pin: line.pin,
          secret: line.secret,
        }),
      ),
    ).toBe('connected');
  });

  it('when a trusted proxy forwards for many clients, then each forwarded address counts on its own; X-Forwarded-For from anyone else is ignored', async () => {
    const line = await open(
      { limits: { numberSlow: { points: 100, durationS: 60 }, numberLock: { points: 100, durationS: 60 } } },
      { trustProxy: ['127.0.7.1'] },
    );
    const from = '+15550500001';
    const direct: string[] = [];
    for (let i = 0; i < 5; i++)
      direct.push(
        outcome(await tryPin(line, wrong(from, '127.0.7.2', { 'X-Forwarded-For': `198.51.100.${i + 1}` }))),
      );
    expect(direct).toEqual(['checked', 'checked', 'checked', 'checked', 'locked']);
    const viaProxy: string[] = [];
    for (let i = 0; i < 6; i++)
      viaProxy.push(
        outcome(await tryPin(line, wrong(from, '127.0.7.1', { 'X-Forwarded-For': `203.0.113.${i + 1}` }))),
      );
    expect(viaProxy.every((o) => o === 'checked')).toBe(true);
    const oneClient: string[] = [];
    for (let i = 0; i < 5; i++)
      oneClient.push(
        outcome(
          await tryPin(line, wrong(from, '127.0.7.1', { 'X-Forwarded-For': `192.0.2.99, 203.0.113.50` })),
        ),
      );
    expect(oneClient).toEqual(['checked', 'checked', 'checked', 'checked', 'locked']);
  });

  it('when one address calls the entry past its limit, then 429 with Retry-After as a VoiceXML document, while another address is served', async () => {
    const line = await open({ limits: { entry: { points: 5, durationS: 60 } } });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 7; i++) {
      const r = await post(
        line,
        entryPath(line.phoneNumber),
        { from: '+15550600001', callId: `sb-e-${i}` },
        '127.0.8.1',
      );
      statuses.push(r.status);
      if (r.status === 429) refused = r;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(refused?.contentType).toContain('application/voicexml+xml');
    expect(refused?.text).toContain('rate_limited');
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(
      (await post(line, entryPath(line.phoneNumber), { from: '+15550600001', callId: 'sb-e-x' }, '127.0.8.2'))
        .status,
    ).toBe(200);
  });

  it("when a number is not in service, then its entry and a wrong PIN read exactly as a real number's", async () => {
    const line = await open({});
    const unknown = `${line.phoneNumber.slice(0, -4)}${((Number(line.phoneNumber.slice(-4)) + 1) % 10000).toString().padStart(4, '0')}`;
    const normalize = (xml: string, n: string) =>
      xml
        .replace(/<var name="attempt" expr="'[^']+'"/, '<var name="attempt" expr="\'…\'"')
        .replaceAll(encodeURIComponent(n), 'NUMBER');
    const as = async (n: string) => {
      const entry = await post(line, entryPath(n), { from: '+15550700001', callId: 'sb-same' }, '127.0.9.1');
      const login = await post(
        line,
        `${entryPath(n)}?step=login&callId=sb-same&from=%2B15550700001`,
        { attempt: attemptOf(entry.text), pin: '123456', secret: '12345678' },
        '127.0.9.1',
      );
      return [entry.status, normalize(entry.text, n), login.status, normalize(login.text, n)];
    };
    const real = await as(line.phoneNumber);
    expect(real[3]).toContain(CHECKED);
    expect(await as(unknown)).toEqual(real);
  });
});

describe.skipIf(!redisAvailable())('sandbox entry writes [redis]', () => {
  const prefix = testPrefix();
  let store: Store;
  let line: Line;
  let redis: Redis;
  beforeAll(async () => {
    store = await makeRedisStore(prefix);
    line = await openLine(store, { limits: { entry: { points: 100_000, durationS: 60 } } });
    redis = new Redis(redisUrl(), { lazyConnect: true });
    await redis.connect();
  });
  afterAll(async () => {
    await line.gw.close();
    await store.close();
    redis.disconnect();
  });

  const keys = async (): Promise<string[]> => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    return found;
  };

  it('when 3,000 requests hit the unauthenticated entry (known and unknown numbers), then no key is written per request', async () => {
    const before = new Set(await keys());
    const numbers = [line.phoneNumber, '+15550000001', '+15550000002', '+4930123456'];
    let served = 0;
    let next = 0;
    const worker = async () => {
      while (next < 3000) {
        const i = next++;
        const res = await fetch(`${line.gw.url}${entryPath(numbers[i % numbers.length]!)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            from: `+1555${String(i).padStart(7, '0')}`,
            callId: `sb-flood-${i}`,
          }).toString(),
        });
        if (res.status === 200 && (await res.text()).includes('<field')) served++;
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    expect(served).toBe(3000);
    const added = (await keys()).filter((k) => !before.has(k));
    // one counter for the one client address, nothing per request, per number or per call
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('rl:sandbox-entry');
    // 3,000 real requests: a loaded 2-core CI machine needs more than the default 30 s
  }, 120_000);
});
