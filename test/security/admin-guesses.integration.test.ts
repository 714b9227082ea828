/**
 * Issue 38, finding 7: guesses at the admin token, over real HTTP on the API stores (memory, Redis). Each client
 * address is its own (X-Forwarded-For behind a trusted proxy). 5,000 wrong Bearer tokens get at
 * most the first window's comparisons, the rest 429 without one, and the right token is refused
 * too while the address is limited; a parallel burst at sign-in with the right token inside it gets
 * no more comparisons than the window allows, wherever the right one lands; the refused guesses
 * are counted on /metrics; another address and an address in ADMIN_TRUSTED_NETWORKS still get in;
 * and the refusal grows with further attempts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { createCredentialGuesses, createMetrics, type Metrics } from '../../src/platform/index.js';
import { rateLimitersOf } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

const FIRST_WINDOW = 10;
const TRUSTED = '198.51.100.0/24';

describeEachStore('guesses at the admin token', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let n = 0;
  /** A fresh client address per test (documentation range 203.0.113.0/24 and 2001:db8::/32). */
  const address = () => `203.0.113.${++n}`;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, config: { trustProxy: true, adminTrustedNetworks: [TRUSTED] } });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  const bearer = (from: string, token: string) =>
    fetch(`${gw.url}/api/admin/apps`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': from },
    });
  const signIn = (from: string, token: string) =>
    fetch(`${gw.url}/api/console/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: gw.url, 'X-Forwarded-For': from },
      body: JSON.stringify({ token }),
    });
  const refusedGuesses = async (): Promise<number> => {
    const text = await fetch(`${gw.url}/metrics`).then((r) => r.text());
    return Number(/^ivr_refused_guesses_total\{credential="admin"\} (\S+)$/m.exec(text)?.[1] ?? 0);
  };

  it('when 5,000 wrong Bearer tokens come from one address, then only the first window is answered 401, the rest and then the right token answer 429, and /metrics counts every refusal', async () => {
    const guesses = factory.name === 'memory' ? 5000 : 2000;
    const from = address();
    const before = await refusedGuesses();
    const statuses: number[] = [];
    for (let i = 0; i < guesses; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          bearer(from, `guess-${i + j}-0123456789abcdef`).then((r) => r.status),
        ),
      );
      statuses.push(...batch);
    }
    const count = (s: number) => statuses.filter((x) => x === s).length;
    expect(count(401)).toBeLessThanOrEqual(FIRST_WINDOW);
    expect(count(429)).toBe(guesses - count(401));
    const right = await bearer(from, gw.config.adminToken);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await right.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe(
      'rate_limited',
    );
    expect((await refusedGuesses()) - before).toBe(count(429) + 1);
    // another address is not refused for this one's guesses
    expect((await bearer(address(), gw.config.adminToken)).status).toBe(200);
  });

  it('when a parallel burst of sign-ins carries the right token among wrong ones, then no guess is answered past the window', async () => {
    const from = address();
    const tokens = Array.from({ length: 100 }, (_, i) =>
      i === 59 ? gw.config.adminToken : `wrong-${i}-0123456789abcdef`,
    );
    const statuses = await Promise.all(tokens.map((t) => signIn(from, t).then((r) => r.status)));
    const answeredWrong = statuses.filter((s) => s === 401).length;
    expect(answeredWrong).toBeLessThanOrEqual(FIRST_WINDOW);
    // the right token got in only if it came before the wrong guesses passed the window, else 429
    expect([201, 429]).toContain(statuses[59]);
    expect(statuses.filter((s) => s === 429).length).toBe(
      100 - answeredWrong - (statuses[59] === 201 ? 1 : 0),
    );
    // Bearer and sign-in share the count: the address is limited on both
    expect((await bearer(from, gw.config.adminToken)).status).toBe(429);
  });

  it('when a script sends many parallel requests with the right token, then none is refused and the address stays open', async () => {
    const from = address();
    const statuses = await Promise.all(
      Array.from({ length: 5 * FIRST_WINDOW }, () =>
        bearer(from, gw.config.adminToken).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // its wrong guesses are still counted from zero
    for (let i = 0; i < FIRST_WINDOW; i++)
      expect((await bearer(from, `wrong-${i}-0123456789abcdef`)).status).toBe(401);
    expect((await bearer(from, 'one-more-wrong-0123456789abcdef')).status).toBe(429);
  });

  it('when the right token comes from a trusted network while its neighbours are limited, then it gets in', async () => {
    const neighbour = '198.51.100.7';
    for (let i = 0; i < FIRST_WINDOW + 5; i++) await bearer(neighbour, `wrong-${i}-0123456789abcdef`);
    // trusted addresses are not limited: their wrong tokens are 401, never 429
    expect((await bearer(neighbour, 'still-wrong-0123456789abcdef')).status).toBe(401);
    expect((await bearer('198.51.100.8', gw.config.adminToken)).status).toBe(200);
    expect((await signIn('198.51.100.9', gw.config.adminToken)).status).toBe(201);
  });

  it('when an IPv6 client changes the low half of its address, then its guesses still count as one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FIRST_WINDOW + 2; i++)
      statuses.push(
        (await bearer(`2001:db8:0:${n + 1}::${(i + 1).toString(16)}`, `v6-guess-${i}-0123456789abcdef`))
          .status,
      );
    n++;
    expect(statuses.slice(0, FIRST_WINDOW)).toEqual(Array(FIRST_WINDOW).fill(401));
    expect(statuses.slice(FIRST_WINDOW)).toEqual([429, 429]);
  });

  it('when a right token is sent many times from one address, then it is never refused (its points are given back)', async () => {
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < 3 * FIRST_WINDOW; i++)
      statuses.push((await bearer(from, gw.config.adminToken)).status);
    expect(statuses).toEqual(Array(3 * FIRST_WINDOW).fill(200));
  });
});

describe('how long a limited address is refused', () => {
  it("when attempts keep coming while it is refused, then the refusal grows from the short window's block to the longer one's", async () => {
    const store = new MemoryStore('guesses:');
    const metrics: Metrics = createMetrics();
    const guesses = createCredentialGuesses({
      rateLimiters: rateLimitersOf(store),
      metrics,
      windows: [
        { suffix: 'short', points: 3, durationS: 2, blockDurationS: 2 },
        { suffix: 'long', points: 6, durationS: 60, blockDurationS: 30 },
      ],
    });
    const retryAfter = async (): Promise<number | 'compared'> => {
      try {
        await guesses.attempt('192.0.2.1', () => false);
        return 'compared';
      } catch (err) {
        return Number((err as { headers: Record<string, string> }).headers['Retry-After']);
      }
    };
    const first = [await retryAfter(), await retryAfter(), await retryAfter(), await retryAfter()];
    expect(first.slice(0, 3)).toEqual(['compared', 'compared', 'compared']);
    expect(first[3]).toBeLessThanOrEqual(2);
    // three more attempts while refused pass the long window: now refused for its longer block
    await retryAfter();
    await retryAfter();
    const later = await retryAfter();
    expect(later).toBeGreaterThan(20);
    let comparedAgain = false;
    expect(await guesses.attempt('192.0.2.2', () => ((comparedAgain = true), true))).toBe(true);
    expect(comparedAgain).toBe(true);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^ivr_refused_guesses_total\{credential="admin"\} 4$/m);
    await store.close();
  });
});
