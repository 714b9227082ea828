/**
 * verifyHs256 remembers the tokens whose signature it checked (the webhook presents one channel
 * token on every turn). What it remembers must never let a token through that a fresh check would
 * refuse: a rotated secret, an expiry passed since, a tampered copy.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signHs256, verifyHs256 } from '../../src/platform/index.js';

const secrets = (map: Record<string, string>) => async (appId: string) => map[appId] ?? null;

describe('verifyHs256 with remembered signatures', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when the same token is verified twice, then both pass with the same claims', async () => {
    const appId = `app-${randomUUID()}`;
    const token = signHs256({ appId, sub: 'caller' }, 's1');
    const first = await verifyHs256(token, secrets({ [appId]: 's1' }));
    const second = await verifyHs256(token, secrets({ [appId]: 's1' }));
    expect(second).toEqual(first);
    expect(second.sub).toBe('caller');
  });

  it('when the secret is rotated after a token passed, then that token is refused', async () => {
    const appId = `app-${randomUUID()}`;
    const token = signHs256({ appId }, 'old-secret');
    await verifyHs256(token, secrets({ [appId]: 'old-secret' }));
    await expect(verifyHs256(token, secrets({ [appId]: 'new-secret' }))).rejects.toMatchObject({ status: 401 });
    // and going back to the old secret checks the signature again rather than trusting a stale entry
    await expect(verifyHs256(token, secrets({ [appId]: 'old-secret' }))).resolves.toMatchObject({ appId });
  });

  it('when the app has no secret any more, then a token that passed before is refused', async () => {
    const appId = `app-${randomUUID()}`;
    const token = signHs256({ appId }, 's1');
    await verifyHs256(token, secrets({ [appId]: 's1' }));
    await expect(verifyHs256(token, secrets({}))).rejects.toMatchObject({ status: 401 });
  });

  it('when a token that passed has expired since, then it is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const appId = `app-${randomUUID()}`;
    const token = signHs256({ appId }, 's1', 60);
    await verifyHs256(token, secrets({ [appId]: 's1' }));
    vi.setSystemTime(new Date('2026-01-01T00:02:00Z'));
    await expect(verifyHs256(token, secrets({ [appId]: 's1' }))).rejects.toMatchObject({ status: 401 });
  });

  it('when a copy of a passed token has a changed signature character, then the copy is refused', async () => {
    const appId = `app-${randomUUID()}`;
    const token = signHs256({ appId }, 's1');
    await verifyHs256(token, secrets({ [appId]: 's1' }));
    const last = token.at(-1)!;
    const tampered = token.slice(0, -1) + (last === 'A' ? 'B' : 'A');
    await expect(verifyHs256(tampered, secrets({ [appId]: 's1' }))).rejects.toMatchObject({ status: 401 });
  });

  it('when a result is shared between requests, then nobody can change it', async () => {
    const appId = `app-${randomUUID()}`;
    const token = signHs256({ appId, role: 'caller' }, 's1');
    const first = await verifyHs256(token, secrets({ [appId]: 's1' }));
    expect(() => {
      (first.claims as Record<string, unknown>).role = 'admin';
    }).toThrow(TypeError);
    expect((await verifyHs256(token, secrets({ [appId]: 's1' }))).claims.role).toBe('caller');
  });
});
