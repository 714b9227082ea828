/**
 * Private, loopback, link-local and otherwise non-public addresses that a model endpoint given by a
 * user must not reach (unless ALLOW_PRIVATE_MODEL_ENDPOINTS): IPv4, IPv6 and IPv4 embedded in IPv6
 * (mapped `::ffff:a.b.c.d` in either notation, compatible `::a.b.c.d`, translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002:aabb:ccdd::/48`, Teredo `2001:0::/32`
 * with its server and its obfuscated client address). The local-use NAT64 prefix `64:ff9b:1::/48`
 * (RFC 8215) translates to whatever the operator's NAT64 reaches, so all of it is refused.
 */
import { BlockList, isIP } from 'node:net';

const V4_RANGES: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", includes 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];
const V6_RANGES: Array<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
];

const v4 = new BlockList();
for (const [net, prefix] of V4_RANGES) v4.addSubnet(net, prefix, 'ipv4');
const v6 = new BlockList();
for (const [net, prefix] of V6_RANGES) v6.addSubnet(net, prefix, 'ipv6');

/** Expands an IPv6 text to its eight 16-bit groups (handles `::` and a dotted IPv4 tail). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const b = dotted[1]!.split('.').map(Number);
    text =
      text.slice(0, -dotted[1]!.length) +
      `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail !== undefined ? 8 - h.length - t.length : 0;
  if (fill < 0) return null;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

const v4Of = (hi: number, lo: number): string => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');

/** The IPv4 addresses an IPv6 address embeds (mapped, compatible, translated, NAT64, 6to4, Teredo): none for a plain one. */
function embeddedV4(ip: string): string[] | null {
  const g = ipv6Groups(ip);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const compatible = zeros(0, 6) && (g[6]! !== 0 || g[7]! > 1);
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (mapped || compatible || translated || nat64) return [v4Of(g[6]!, g[7]!)];
  // 6to4: 2002:AABB:CCDD::/48 is the site behind IPv4 AA.BB.CC.DD
  if (g[0] === 0x2002) return [v4Of(g[1]!, g[2]!)];
  // Teredo: 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the server, then the client with every bit flipped
  if (g[0] === 0x2001 && g[1] === 0) return [v4Of(g[2]!, g[3]!), v4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
  return null;
}

/** true for an address a user-given endpoint must not reach; also true for anything unparsable. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const kind = isIP(ip.split('%')[0]!);
  if (kind === 4) return v4.check(ip, 'ipv4');
  if (kind === 6) {
    const inner = embeddedV4(ip);
    if (inner !== null) return inner.some((a) => v4.check(a, 'ipv4'));
    return v6.check(ip.split('%')[0]!, 'ipv6');
  }
  return true;
}
