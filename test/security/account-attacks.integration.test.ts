/**
 * Attacks on operator accounts over real HTTP on the API stores (memory, Redis): an expired or used invitation link, a
 * disabled account's session and tokens, password guessing from one address and spread over many,
 * and passwords, their hashes and tokens looked for in every answer, the audit trail and the log.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { call, makeOperator, signInWithPassword } from '../accounts/operator-kit.js';

describeEachStore('attacks on operator accounts', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let now = Date.now();
  const answers: string[] = [];
  const seen = async <T extends { text: string }>(p: Promise<T>): Promise<T> => {
    const a = await p;
    answers.push(a.text);
    return a;
  };

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, config: { trustProxy: true }, options: { clock: () => now } });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  const invite = async (email: string) => {
    const res = await gw.admin('POST', '/api/admin/accounts', { email, grants: [{ role: 'viewer' }] });
    answers.push(JSON.stringify(res.body));
    return res.body as {
      account: { id: string };
      invitation: { token: string; url: string; expiresAt: string };
    };
  };
  it('when an invitation link has expired, then it sets no password (410); a used or unknown one answers 404', async () => {
    const inv = await invite('late@example.com');
    expect(inv.invitation.url).toContain(`/console/invitation#${inv.invitation.token}`);
    now += 73 * 3600_000;
    const late = await fetch(`${gw.url}/api/accounts/invitation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.1' },
      body: JSON.stringify({ token: inv.invitation.token, password: 'a-long-password-123' }),
    });
    expect(late.status).toBe(410);
    expect(((await late.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe(
      'invitation_expired',
    );
    expect((await signInWithPassword(gw, 'late@example.com', 'a-long-password-123')).status).toBe(401);

    // a new link from an owner works, once
    const again = await gw.admin('POST', `/api/admin/accounts/${inv.account.id}/invitation`);
    const body = { token: again.body.invitation.token, password: 'a-long-password-123' };
    const ok = await call(gw, 'POST', '/api/accounts/invitation', {}, body);
    expect(ok.status).toBe(200);
    expect((await call(gw, 'POST', '/api/accounts/invitation', {}, body)).status).toBe(404);
    expect(
      (
        await call(
          gw,
          'POST',
          '/api/accounts/invitation',
          {},
          { token: 'inv_made-up', password: 'a-long-password-123' },
        )
      ).status,
    ).toBe(404);
    // the first link was replaced: it sets nothing now
    now -= 73 * 3600_000;
    expect(
      (
        await call(
          gw,
          'POST',
          '/api/accounts/invitation',
          {},
          { token: inv.invitation.token, password: 'a-long-password-123' },
        )
      ).status,
    ).toBe(404);
  });

  it('when a password is too short, then the invitation answers 400 at body.password and stays usable', async () => {
    const inv = await invite('short@example.com');
    const res = await call(
      gw,
      'POST',
      '/api/accounts/invitation',
      {},
      { token: inv.invitation.token, password: 'short' },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('body.password');
    expect(
      (
        await call(
          gw,
          'POST',
          '/api/accounts/invitation',
          {},
          { token: inv.invitation.token, password: 'long-enough-password' },
        )
      ).status,
    ).toBe(200);
  });

  it('when one address guesses passwords, then past 10 a minute every attempt is refused with 429, the right password too', async () => {
    const op = await makeOperator(gw, 'target@example.com', [{ role: 'editor' }]);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await signInWithPassword(gw, op.email, `guess-number-${i}-xx`, '203.0.113.5')).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const right = await signInWithPassword(gw, op.email, op.password, '203.0.113.5');
    expect(right.status).toBe(429);
    expect(right.cookie).toBe('');
    // another address is not refused for this one's guesses, but the account's own count is used up
    expect((await signInWithPassword(gw, op.email, op.password, '203.0.113.77')).status).toBe(429);
    // the session made before still works: sessions are not guesses
    expect((await call(gw, 'GET', '/api/admin/apps', { cookie: op.cookie })).status).toBe(200);
  });

  it('when guesses at one account are spread over many addresses, then the account count refuses them past 10', async () => {
    const op = await makeOperator(gw, 'spread@example.com', [{ role: 'viewer' }]);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await signInWithPassword(gw, op.email, `guess-${i}-padding`, `192.0.2.${i + 1}`)).status,
      );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    // another account from a fresh address is not refused
    const other = await makeOperator(gw, 'bystander@example.com', [{ role: 'viewer' }]);
    expect((await signInWithPassword(gw, other.email, other.password, '192.0.2.200')).status).toBe(201);
  });

  it('when a personal token is guessed, then the guesses are counted with the admin token: past 10 a minute, 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await fetch(`${gw.url}/api/admin/apps`, {
        headers: { Authorization: `Bearer pat_guess${i}`, 'X-Forwarded-For': '203.0.113.99' },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('when accounts are made, used, changed and audited, then no answer, audit entry or log line holds a password, its hash or a token', async () => {
    const op = await makeOperator(
      gw,
      'secretive@example.com',
      [{ role: 'owner' }],
      'correct-horse-battery-staple',
    );
    // the answer that makes the token holds it (shown once): every other is searched
    const token = await call(gw, 'POST', '/api/account/tokens', { cookie: op.cookie }, { name: 'ci' });
    await seen(
      call(
        gw,
        'PUT',
        '/api/account/password',
        { cookie: op.cookie },
        { currentPassword: 'correct-horse-battery-staple', newPassword: 'tr0ub4dor-and-more-3' },
      ),
    );
    const signed = await signInWithPassword(gw, op.email, 'tr0ub4dor-and-more-3');
    answers.push(signed.text);
    for (const path of [
      '/api/admin/accounts',
      `/api/admin/accounts/${op.id}`,
      `/api/admin/accounts/${op.id}/tokens`,
      '/api/account',
      '/api/account/tokens',
      '/api/admin/audit?limit=500',
      '/api/console/session',
    ]) {
      await seen(call(gw, 'GET', path, { cookie: signed.cookie }));
    }
    const audit = await call(gw, 'GET', '/api/admin/audit?limit=500', { cookie: signed.cookie });
    const change = audit.body.entries.find(
      (e: { action: string }) => e.action === 'PUT /api/account/password',
    );
    expect(change.changes).toEqual(
      expect.arrayContaining([
        { path: 'currentPassword', after: '[redacted]' },
        { path: 'newPassword', after: '[redacted]' },
      ]),
    );
    const everything = [...answers, gw.log.text()].join('\n');
    for (const secret of [
      'correct-horse-battery-staple',
      'tr0ub4dor-and-more-3',
      'pw-target@example.com-long-enough',
      token.body.token as string,
      'scrypt$',
      'passwordHash',
    ]) {
      expect(everything).not.toContain(secret);
    }
    // the token is in the answer that made it, and only there
    expect(token.text).toContain(token.body.token);
  });
});
