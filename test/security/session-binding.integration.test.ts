/**
 * Issue 38, finding 4: a console session outlived the admin token that made it. Over real HTTP
 * on the API stores (memory, Redis): a cookie made while the instances ran with one ADMIN_TOKEN is refused (GET and
 * POST) by an instance that runs with a new one, and by the first instance once it restarts with
 * the new token; a session made with the new token works. And the session check the live feeds
 * ask at every heartbeat (`ConsoleService.isActive`) answers false after sign-out, at expiry and
 * after the token changed.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { ConsoleService } from '../../src/console-sign-in/index.js';
import { rateLimitersOf } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

const OLD_TOKEN = 'old-admin-token-0123456789abcdef';
const NEW_TOKEN = 'new-admin-token-0123456789abcdef';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachStore('a console session after the admin token changes', 'api', (factory) => {
  let store: Store;
  const masterKey = randomBytes(32);
  const running: RunningGateway[] = [];
  const start = async (adminToken: string) => {
    const gw = await startGateway({ store, config: { adminToken, masterKey } });
    running.push(gw);
    return gw;
  };

  beforeAll(async () => {
    store = await factory.make();
  });
  afterAll(async () => {
    for (const gw of running) await gw.close();
    await store.close();
  });

  const signIn = async (gw: RunningGateway, token: string): Promise<string> => {
    const res = await fetch(`${gw.url}/api/console/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: gw.url },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(201);
    return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  };
  const get = (gw: RunningGateway, cookie: string) =>
    fetch(`${gw.url}/api/admin/apps`, { headers: { Cookie: cookie } }).then((r) => r.status);
  const post = (gw: RunningGateway, cookie: string) =>
    fetch(`${gw.url}/api/admin/apps`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: gw.url },
      body: '{"name":"After the change"}',
    }).then((r) => r.status);

  it('when ADMIN_TOKEN changes, then a cookie made with the old token is refused on every instance that runs with the new one, GET and POST', async () => {
    const before = await start(OLD_TOKEN);
    const cookie = await signIn(before, OLD_TOKEN);
    expect(await get(before, cookie)).toBe(200);
    expect(await post(before, cookie)).toBe(201);

    // another instance already on the new token, and the first one restarted with it
    const other = await start(NEW_TOKEN);
    await before.close();
    running.splice(running.indexOf(before), 1);
    const restarted = await start(NEW_TOKEN);
    for (const gw of [other, restarted]) {
      expect(await get(gw, cookie)).toBe(401);
      expect(await post(gw, cookie)).toBe(401);
      expect((await fetch(`${gw.url}/api/console/session`, { headers: { Cookie: cookie } })).status).toBe(
        401,
      );
    }
    // the new token signs in as before
    const fresh = await signIn(restarted, NEW_TOKEN);
    expect(await get(other, fresh)).toBe(200);
  });

  it('when a session is signed out, expires, or its token changed, then isActive answers false at once', async () => {
    const rateLimiters = rateLimitersOf(store);
    const service = new ConsoleService(store, {
      adminToken: OLD_TOKEN,
      ttlS: 60,
      rateLimiters,
      credentialKey: masterKey,
    });
    const changed = new ConsoleService(store, {
      adminToken: NEW_TOKEN,
      ttlS: 60,
      rateLimiters,
      credentialKey: masterKey,
    });
    const short = new ConsoleService(store, {
      adminToken: OLD_TOKEN,
      ttlS: 1,
      rateLimiters,
      credentialKey: masterKey,
    });

    const kept = (await service.signIn({ token: OLD_TOKEN }, '192.0.2.10')).sessionId;
    expect(await service.isActive(kept)).toBe(true);
    expect(await changed.isActive(kept)).toBe(false);

    const signedOut = (await service.signIn({ token: OLD_TOKEN }, '192.0.2.10')).sessionId;
    await service.signOut(signedOut);
    expect(await service.isActive(signedOut)).toBe(false);

    const expiring = (await short.signIn({ token: OLD_TOKEN }, '192.0.2.10')).sessionId;
    expect(await short.isActive(expiring)).toBe(true);
    await sleep(1100);
    expect(await short.isActive(expiring)).toBe(false);
    expect(await service.isActive(kept)).toBe(true);
  });
});
