import { describe, expect, it } from 'vitest';
import { createEndpointGuard, isPrivateAddress, LlmError } from '../../src/connections/index.js';

describe('private addresses', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.10',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.1.1',
    '::1',
    '::',
    'fc00::1',
    'fdff:ffff::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:c0a8:0101',
    '64:ff9b::7f00:1',
    '::127.0.0.1',
    '[::1]',
    'not-an-ip',
  ])('when the address is %s, then it is private', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('when the address is %s, then it is public', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('endpoint guard', () => {
  const lookup = async (host: string) =>
    host === 'inside.example.com'
      ? [{ address: '10.0.0.8', family: 4 as const }]
      : host === 'v6.example.com'
        ? [{ address: 'fd00::5', family: 6 as const }]
        : [{ address: '93.184.216.34', family: 4 as const }];
  const guard = createEndpointGuard({ allowPrivate: false, lookup });
  const open = createEndpointGuard({ allowPrivate: true, lookup });

  it('when a URL is written with a private literal or a local name, then create-time checking refuses it', () => {
    for (const url of [
      'http://127.0.0.1/',
      'https://localhost/',
      'http://api.localhost/',
      'http://[::ffff:192.168.0.1]/',
      'http://0x7f.1/',
      'http://017700000001/',
    ]) {
      expect(guard.problemWith(url)).toMatch(/private/);
    }
    expect(guard.problemWith('file:///etc/passwd')).toMatch(/http/);
    expect(guard.problemWith('https://user:pw@models.example.com/')).toMatch(/credentials/);
    expect(guard.problemWith('https://models.example.com/v1')).toBeNull();
    expect(open.problemWith('http://127.0.0.1:8080/')).toBeNull();
  });

  it('when a name resolves to a private address, then call-time resolution refuses it; a public one is returned for pinning', async () => {
    for (const url of ['http://inside.example.com/x', 'https://v6.example.com/x', 'http://127.0.0.1/x']) {
      const err = await guard.resolve(url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).code).toBe('private_endpoint');
    }
    expect(await guard.resolve('https://models.example.com/v1')).toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    expect(await open.resolve('http://inside.example.com/x')).toEqual({ address: '10.0.0.8', family: 4 });
  });
});
