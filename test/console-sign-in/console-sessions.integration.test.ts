/**
 * The operator console's sign-in over real HTTP, on the API stores (memory, Redis): the session cookie and its
 * attributes, sessions shared by two instances of the service, expiry and sign-out, the operator
 * API with the cookie and without it, the cross-site refusal of state-changing requests made with
 * the cookie, and the strict headers of the console's pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

const COOKIE = 'ivr_console_session';

describeEachStore('operator console sessions', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let other: RunningGateway;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    // instances that share a store share MASTER_KEY (required with Redis): a session's binding to
    // the admin token is keyed with it
    other = await startGateway({ store, config: { masterKey: gw.config.masterKey } });
  });
  afterAll(async () => {
    await gw.close();
    await other.close();
    await store.close();
  });

  const signIn = async (
    base = gw.url,
    headers: Record<string, string> = { Origin: gw.url },
    token = gw.config.adminToken,
  ) =>
    fetch(`${base}/api/console/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ token }),
    });
  const cookieOf = (res: Response): string => {
    const set = res.headers.get('set-cookie') ?? '';
    return set.split(';')[0] ?? '';
  };
  const withCookie = (cookie: string, path: string, init: RequestInit = {}, base = gw.url) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), Cookie: cookie },
    });

  it('when the operator signs in with the admin token, then an httpOnly SameSite=Strict session cookie is set that works on the operator API', async () => {
    const res = await signIn();
    expect(res.status).toBe(201);
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{40,};`));
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(set).toContain('Path=/');
    expect(set).not.toContain('Secure');
    expect(set).toMatch(/Max-Age=\d+/);
    const body = (await res.json()) as { signedIn: boolean; expiresAt: string };
    expect(body.signedIn).toBe(true);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    const apps = await withCookie(cookieOf(res), '/api/admin/apps');
    expect(apps.status).toBe(200);
  });

  it('when the token is wrong, then sign-in answers 401 and sets no cookie', async () => {
    const res = await signIn(gw.url, { Origin: gw.url }, 'not-the-admin-token');
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('when no cookie (or an unknown one) is sent, then the console API calls answer 401', async () => {
    for (const path of [
      '/api/console/session',
      '/api/admin/apps',
      '/api/admin/apps/st-00000000-0000-4000-8000-000000000000/ivr-settings',
    ]) {
      expect((await fetch(`${gw.url}${path}`)).status).toBe(401);
      expect((await withCookie(`${COOKIE}=${'x'.repeat(43)}`, path)).status).toBe(401);
    }
    const post = await fetch(`${gw.url}/api/admin/apps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: gw.url },
      body: '{"name":"x"}',
    });
    expect(post.status).toBe(401);
  });

  it('when a session is made on one instance, then another instance of the service sharing the store accepts it', async () => {
    const cookie = cookieOf(await signIn());
    const res = await withCookie(cookie, '/api/console/session', {}, other.url);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { expiresAt?: string }).expiresAt).toBeDefined();
  });

  it('when the operator signs out, then the cookie is cleared and the session no longer works on any instance', async () => {
    const cookie = cookieOf(await signIn());
    const out = await withCookie(cookie, '/api/console/session', {
      method: 'DELETE',
      headers: { Origin: gw.url },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${COOKIE}=;.*Max-Age=0`));
    expect((await withCookie(cookie, '/api/admin/apps')).status).toBe(401);
    expect((await withCookie(cookie, '/api/admin/apps', {}, other.url)).status).toBe(401);
  });

  it('when a state-changing request with the cookie comes from another site, then it is refused with 403 and changes nothing', async () => {
    const cookie = cookieOf(await signIn());
    const before = ((await gw.admin('GET', '/api/admin/apps')).body as { total: number }).total;
    const attempts: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: gw.url, 'Sec-Fetch-Site': 'cross-site' },
      {},
    ];
    for (const headers of attempts) {
      const res = await withCookie(cookie, '/api/admin/apps', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: '{"name":"Forged"}',
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0]?.code).toBe(
        'cross_site_request',
      );
    }
    expect(((await gw.admin('GET', '/api/admin/apps')).body as { total: number }).total).toBe(before);
    const sameOrigin = await withCookie(cookie, '/api/admin/apps', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: gw.url, 'Sec-Fetch-Site': 'same-origin' },
      body: '{"name":"Real"}',
    });
    expect(sameOrigin.status).toBe(201);
    const fetchSite = await withCookie(cookie, '/api/admin/apps', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      body: '{"name":"Real too"}',
    });
    expect(fetchSite.status).toBe(201);
  });

  it('when sign-in itself is posted from another site, then it is refused (no login forgery)', async () => {
    const res = await signIn(gw.url, { Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('when the admin token is sent as a bearer, then no origin check applies (not a browser credential)', async () => {
    const res = await fetch(`${gw.url}/api/admin/apps`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${gw.config.adminToken}`,
        'Content-Type': 'application/json',
        Origin: 'https://tooling.example',
      },
      body: '{"name":"Scripted"}',
    });
    expect(res.status).toBe(201);
  });

  it('when the console pages are requested, then they carry a CSP without inline script, frame-ancestors none and nosniff', async () => {
    for (const path of ['/console/', '/console/apps/st-x/agent']) {
      const res = await fetch(`${gw.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});

describe('operator console sessions: lifetime and transport', () => {
  let gw: RunningGateway;
  let proxied: RunningGateway;
  let store: Store;

  beforeAll(async () => {
    const { MemoryStore } = await import('../../src/store/index.js');
    store = new MemoryStore('console-ttl:');
    gw = await startGateway({ store, config: { consoleSessionTtlS: 1 } });
    proxied = await startGateway({ store, config: { trustProxy: true } });
  });
  afterAll(async () => {
    await gw.close();
    await proxied.close();
    await store.close();
  });

  it('when the session lifetime has passed, then the cookie no longer signs the operator in', async () => {
    const res = await fetch(`${gw.url}/api/console/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: gw.url },
      body: JSON.stringify({ token: gw.config.adminToken }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(res.headers.get('set-cookie')).toContain('Max-Age=1');
    expect((await fetch(`${gw.url}/api/admin/apps`, { headers: { Cookie: cookie } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await fetch(`${gw.url}/api/admin/apps`, { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('when the request came over https through a trusted proxy, then the cookie is Secure and the https origin is the one accepted', async () => {
    const host = new URL(proxied.url).host;
    const res = await fetch(`${proxied.url}/api/console/session`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-Proto': 'https',
        Origin: `https://${host}`,
      },
      body: JSON.stringify({ token: proxied.config.adminToken }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).toContain('Secure');
    const refused = await fetch(`${proxied.url}/api/console/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https', Origin: `http://${host}` },
      body: JSON.stringify({ token: proxied.config.adminToken }),
    });
    expect(refused.status).toBe(403);
  });

  it('when wrong tokens keep coming from one address, then sign-in is refused with 429 for a while, even with the right token', async () => {
    const attempt = (token: string) =>
      fetch(`${proxied.url}/api/console/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: proxied.url },
        body: JSON.stringify({ token }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(`wrong-token-${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const right = await attempt(proxied.config.adminToken);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
