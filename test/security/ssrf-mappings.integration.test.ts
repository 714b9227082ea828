/**
 * Issue 38, finding 8: a 6to4 address mapping 127.0.0.1 passed the model endpoint check. The
 * private-address check reads the IPv4 address inside 6to4 (2002::/16) and Teredo (2001::/32: the
 * server, and the client with its bits flipped) addresses, refuses the local-use NAT64 prefix
 * (64:ff9b:1::/48) whole, and keeps the well-known NAT64 prefix (64:ff9b::/96) read as before; the
 * same mappings of public addresses stay allowed. Both at create time (a literal in the URL) and at
 * call time (a name that resolves to one).
 */
import { describe, expect, it } from 'vitest';
import { createEndpointGuard, isPrivateAddress, LlmError } from '../../src/connections/index.js';

const PRIVATE_MAPPINGS = [
  '2002:7f00:1::', // 6to4 of 127.0.0.1
  '2002:7f00:0001:0:0:0:0:1',
  '2002:a00:1::1', // 6to4 of 10.0.0.1
  '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254 (cloud metadata)
  '2002:c0a8:101::5', // 6to4 of 192.168.1.1
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
  '2001::4136:e378:8000:63bf:f5ff:fffe', // Teredo, client 10.0.0.1
  '2001:0:a00:1:8000:63bf:f7f7:f7f7', // Teredo, server 10.0.0.1
  '64:ff9b:1::7f00:1', // local-use NAT64
  '64:ff9b:1:ffff::808:808',
  '64:ff9b::a9fe:a9fe', // well-known NAT64 of 169.254.169.254
  '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
];
const PUBLIC_MAPPINGS = [
  '2002:808:808::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  '64:ff9b::808:808',
  '2001:4860:4860::8888',
  '2001:db9::1',
];

describe('IPv4 inside IPv6: 6to4, Teredo, NAT64', () => {
  it.each(PRIVATE_MAPPINGS)('when the address is %s, then it is private', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(PUBLIC_MAPPINGS)('when the address is %s, then it is public', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });

  it('when a model endpoint URL holds such a literal, or its name resolves to one, then the guard refuses it', async () => {
    const lookup = async (host: string) => [
      {
        address: host === 'sixtofour.example.com' ? '2002:7f00:1::' : '2001:0:4136:e378:8000:63bf:80ff:fffe',
        family: 6 as const,
      },
    ];
    const guard = createEndpointGuard({ allowPrivate: false, lookup });
    for (const ip of PRIVATE_MAPPINGS)
      expect(guard.problemWith(`http://[${ip}]:8080/v1`), ip).toMatch(/private/);
    for (const host of ['sixtofour.example.com', 'teredo.example.com']) {
      const err = await guard.resolve(`https://${host}/v1`).catch((e: unknown) => e);
      expect(err, host).toBeInstanceOf(LlmError);
    }
  });
});
