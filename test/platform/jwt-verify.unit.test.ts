/**
 * verifyHs256 on its own: what it accepts, what it refuses and with which error, and that refused
 * algorithms and claims never reach the secret lookup. (auth.integration.test.ts checks the same through HTTP.)
 */
import { createHmac, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LRUCache } from 'lru-cache';
import { signHs256, verifyHs256, type VerifiedToken } from '../../src/platform/index.js';

const secrets = (map: Record<string, string>) => vi.fn(async (clientId: string) => map[clientId] ?? null);
const invalidJwt = { status: 401, message: 'Invalid JWT token' };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('verifyHs256', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("when a token is signed with its app's secret, then its client id (the appId claim), sub and claims come back", async () => {
    const clientId = `app-${randomUUID()}`;
    const lookup = secrets({ [clientId]: 's1' });
    const verified = await verifyHs256(
      signHs256({ appId: clientId, sub: 'caller', role: 'x' }, 's1'),
      lookup,
    );
    expect(verified).toMatchObject({
      clientId,
      sub: 'caller',
      claims: { appId: clientId, sub: 'caller', role: 'x' },
    });
    expect(lookup).toHaveBeenCalledWith(clientId);
  });

  it('when the secret is rotated, then a token signed with the old one is refused, and passes again with the old one back', async () => {
    const clientId = `app-${randomUUID()}`;
    const token = signHs256({ appId: clientId }, 'old-secret');
    await expect(verifyHs256(token, secrets({ [clientId]: 'new-secret' }))).rejects.toMatchObject(invalidJwt);
    await expect(verifyHs256(token, secrets({ [clientId]: 'old-secret' }))).resolves.toMatchObject({
      clientId,
    });
  });

  it('when the app has no secret, then the token is refused as invalid credentials', async () => {
    const clientId = `app-${randomUUID()}`;
    await expect(verifyHs256(signHs256({ appId: clientId }, 's1'), secrets({}))).rejects.toMatchObject({
      status: 401,
      message: 'Invalid SDK credentials',
    });
  });

  it('when a signature character changes, even only in its unused bits, then the token is refused', async () => {
    const clientId = `app-${randomUUID()}`;
    const token = signHs256({ appId: clientId }, 's1');
    const last = token.at(-1)!;
    const tampered = token.slice(0, -1) + (last === 'A' ? 'B' : 'A');
    await expect(verifyHs256(tampered, secrets({ [clientId]: 's1' }))).rejects.toMatchObject(invalidJwt);
  });

  it('when exp or nbf is past by more than the clock tolerance, then the token is refused, and within it, it passes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const now = Math.floor(Date.now() / 1000);
    const clientId = `app-${randomUUID()}`;
    const lookup = secrets({ [clientId]: 's1' });
    const sign = (claims: Record<string, unknown>) =>
      jwt.sign({ appId: clientId, ...claims }, 's1', { algorithm: 'HS256' });
    await expect(verifyHs256(sign({ exp: now - 3 }), lookup)).resolves.toMatchObject({ clientId });
    await expect(verifyHs256(sign({ exp: now - 60 }), lookup)).rejects.toMatchObject(invalidJwt);
    await expect(verifyHs256(sign({ nbf: now + 3 }), lookup)).resolves.toMatchObject({ clientId });
    await expect(verifyHs256(sign({ nbf: now + 60 }), lookup)).rejects.toMatchObject(invalidJwt);
    // jsonwebtoken will not sign a text exp: signed by hand
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ appId: clientId, exp: 'later' })}`;
    const textExp = `${unsigned}.${createHmac('sha256', 's1').update(unsigned).digest('base64url')}`;
    await expect(verifyHs256(textExp, lookup)).rejects.toMatchObject(invalidJwt);
  });

  it('when a token that passed expires, then it is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const clientId = `app-${randomUUID()}`;
    const token = signHs256({ appId: clientId }, 's1', 60);
    await verifyHs256(token, secrets({ [clientId]: 's1' }));
    vi.setSystemTime(new Date('2026-01-01T00:02:00Z'));
    await expect(verifyHs256(token, secrets({ [clientId]: 's1' }))).rejects.toMatchObject(invalidJwt);
  });

  it('when a token has no exp, then it passes', async () => {
    const clientId = `app-${randomUUID()}`;
    const token = jwt.sign({ appId: clientId }, 's1', { algorithm: 'HS256', noTimestamp: true });
    await expect(verifyHs256(token, secrets({ [clientId]: 's1' }))).resolves.toMatchObject({ clientId });
  });

  it('when the algorithm is none, HS384, HS512 or RS256, then the token is refused before any secret is looked up', async () => {
    const clientId = `app-${randomUUID()}`;
    const lookup = secrets({ [clientId]: 's1' });
    const tokens = [
      jwt.sign({ appId: clientId }, '', { algorithm: 'none' }),
      jwt.sign({ appId: clientId }, 's1', { algorithm: 'HS384' }),
      jwt.sign({ appId: clientId }, 's1', { algorithm: 'HS512' }),
      `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ appId: clientId })}.sig`,
    ];
    for (const token of tokens) await expect(verifyHs256(token, lookup)).rejects.toMatchObject(invalidJwt);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('when appId is missing, empty, not a string or over 200 characters, then the token is refused before any secret is looked up', async () => {
    const lookup = vi.fn(async () => 's1');
    for (const claims of [{ sub: 'x' }, { appId: '' }, { appId: 7 }, { appId: 'a'.repeat(201) }]) {
      await expect(verifyHs256(signHs256(claims, 's1'), lookup)).rejects.toMatchObject(invalidJwt);
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it('when the token is malformed or longer than 8192 characters, then it is refused as an invalid JWT', async () => {
    const clientId = `app-${randomUUID()}`;
    const lookup = secrets({ [clientId]: 's1' });
    const long = signHs256({ appId: clientId, pad: 'x'.repeat(8200) }, 's1');
    const malformed = [
      '',
      'a.b',
      'x.y.z',
      `${b64({ alg: 'HS256' })}.${Buffer.from('not json').toString('base64url')}.sig`,
      `${b64({ alg: 'HS256' })}.${b64([clientId])}.sig`,
    ];
    for (const token of [long, ...malformed])
      await expect(verifyHs256(token, lookup)).rejects.toMatchObject(invalidJwt);
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe('verifyHs256 with a cache of verified tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const cache = () => new LRUCache<string, { result: VerifiedToken; secret: string }>({ max: 100 });

  it('when a verified token comes again, then it is answered from the cache, and the secret is still looked up each time', async () => {
    const tokens = cache();
    const clientId = `app-${randomUUID()}`;
    const lookup = secrets({ [clientId]: 's1' });
    const token = signHs256({ appId: clientId, sub: 'caller' }, 's1');
    const first = await verifyHs256(token, lookup, tokens);
    expect(tokens.has(token)).toBe(true);
    expect(await verifyHs256(token, lookup, tokens)).toBe(first);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('when the secret is rotated after a token was cached, then the token is refused at once', async () => {
    const tokens = cache();
    const clientId = `app-${randomUUID()}`;
    const map: Record<string, string> = { [clientId]: 'old-secret' };
    const token = signHs256({ appId: clientId }, 'old-secret');
    await verifyHs256(token, secrets(map), tokens);
    map[clientId] = 'new-secret';
    await expect(verifyHs256(token, secrets(map), tokens)).rejects.toMatchObject(invalidJwt);
    expect(tokens.has(token)).toBe(false);
    delete map[clientId];
    await expect(verifyHs256(token, secrets(map), tokens)).rejects.toMatchObject({ status: 401 });
  });

  it('when a cached token expires, then it is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = cache();
    const clientId = `app-${randomUUID()}`;
    const token = signHs256({ appId: clientId }, 's1', 60);
    await verifyHs256(token, secrets({ [clientId]: 's1' }), tokens);
    vi.setSystemTime(new Date('2026-01-01T00:01:04Z'));
    await verifyHs256(token, secrets({ [clientId]: 's1' }), tokens);
    vi.setSystemTime(new Date('2026-01-01T00:01:06Z'));
    await expect(verifyHs256(token, secrets({ [clientId]: 's1' }), tokens)).rejects.toMatchObject(invalidJwt);
  });

  it('when a token is refused, then nothing is cached for it', async () => {
    const tokens = cache();
    const clientId = `app-${randomUUID()}`;
    const token = signHs256({ appId: clientId }, 'other');
    await expect(verifyHs256(token, secrets({ [clientId]: 's1' }), tokens)).rejects.toMatchObject(invalidJwt);
    expect(tokens.size).toBe(0);
  });
});
