/**
 * Keeps user-given model endpoints off private networks. At create time the URL is checked as
 * written (scheme, `localhost`, literal IPs); at call time the host name is resolved (every
 * address, `dns.lookup` with all:true) and refused when any address is private. The caller then
 * connects to the very address that was checked (see pinned-transport.ts), so a name that re-resolves
 * to another address between check and connect (DNS rebinding) cannot slip through.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from './private-address.js';
import { LlmError } from './llm-error.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const isLocalName = (host: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain';
};

/** Host name of a URL without IPv6 brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

export interface EndpointGuard {
  /** A problem message for a URL as written, or null when acceptable (create-time check). */
  problemWith(url: string): string | null;
  /**
   * Resolves the URL's host for a call; throws LlmError('private_endpoint') when it is (or resolves
   * to) a private address. Returns the address to connect to (null when the host is a literal IP).
   */
  resolve(url: string): Promise<ResolvedAddress | null>;
}

export function createEndpointGuard(opts: { allowPrivate: boolean; lookup?: HostLookup }): EndpointGuard {
  const lookup = opts.lookup ?? systemLookup;
  return {
    problemWith(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return 'must be an absolute http or https URL';
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
      if (url.username || url.password) return 'must not carry credentials; send them in headers';
      if (opts.allowPrivate) return null;
      const host = hostOf(url);
      if (isLocalName(host) || (isIP(host) !== 0 && isPrivateAddress(host))) {
        return 'must not point to a private, loopback or link-local address';
      }
      return null;
    },
    async resolve(raw) {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new LlmError('private_endpoint', 'Only http and https model endpoints are allowed');
      const host = hostOf(url);
      const literal = isIP(host);
      if (literal !== 0) {
        if (!opts.allowPrivate && isPrivateAddress(host))
          throw new LlmError('private_endpoint', 'The model endpoint is a private address');
        return null;
      }
      if (!opts.allowPrivate && isLocalName(host))
        throw new LlmError('private_endpoint', 'The model endpoint is a local name');
      let addresses: ResolvedAddress[];
      try {
        addresses = await lookup(host);
      } catch {
        throw new LlmError('network', 'The model endpoint host name does not resolve');
      }
      if (addresses.length === 0)
        throw new LlmError('network', 'The model endpoint host name does not resolve');
      if (!opts.allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
        throw new LlmError('private_endpoint', 'The model endpoint resolves to a private address');
      }
      return addresses[0]!;
    },
  };
}
