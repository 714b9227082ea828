/**
 * Encodes a list of (name, value) parameters as a request body the way a client (or an attacker)
 * would: JSON (any value type, duplicate names collapse), urlencoded and multipart (repeated
 * names kept, non-strings flattened), or the query string of a GET. Malformed bodies too.
 */
import fc from 'fast-check';
import { pct, toJsonText } from './hostile-values.js';

export type Encoding = 'json' | 'urlencoded' | 'multipart' | 'query' | 'malformed-json' | 'wrong-type';
export const ENCODINGS: Encoding[] = [
  'json',
  'urlencoded',
  'multipart',
  'query',
  'malformed-json',
  'wrong-type',
];
/** The encodings a browser really uses, weighted for runs that must reach the turn loop. */
export const encodingArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Encoding>('json', 'urlencoded', 'multipart', 'query') },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>('malformed-json', 'wrong-type') },
);

export interface Encoded {
  query: string;
  body?: Buffer;
  contentType?: string;
  method: 'GET' | 'POST';
}

const flat = (v: unknown): string => {
  if (typeof v === 'string') return v;
  try {
    return toJsonText(v);
  } catch {
    return String(v);
  }
};

/** Multipart form name escaping (WHATWG): CR, LF and `"` percent-encoded. */
const formName = (name: string): string =>
  name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');

export function multipartBody(params: Array<[string, unknown]>, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of params) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${formName(name)}"\r\n\r\n`,
        'utf8',
      ),
    );
    parts.push(Buffer.isBuffer(value) ? value : Buffer.from(flat(value), 'utf8'));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export const urlencoded = (params: Array<[string, unknown]>): string =>
  params.map(([k, v]) => `${pct(k)}=${pct(flat(v))}`).join('&');

/** `extraQuery` is a raw query fragment (e.g. `token=...`) always put in the URL. */
export function encode(enc: Encoding, params: Array<[string, unknown]>, extraQuery: string): Encoded {
  const withQuery = (q: string): string => {
    const all = [extraQuery, q].filter(Boolean).join('&');
    return all ? `?${all}` : '';
  };
  switch (enc) {
    case 'json':
      return {
        method: 'POST',
        query: withQuery(''),
        contentType: 'application/json',
        body: Buffer.from(toJsonText(Object.fromEntries(params)), 'utf8'),
      };
    case 'urlencoded':
      return {
        method: 'POST',
        query: withQuery(''),
        contentType: 'application/x-www-form-urlencoded',
        body: Buffer.from(urlencoded(params), 'utf8'),
      };
    case 'multipart': {
      const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
      return {
        method: 'POST',
        query: withQuery(''),
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: multipartBody(params, boundary),
      };
    }
    case 'query':
      return { method: 'GET', query: withQuery(urlencoded(params).slice(0, 6000)) };
    case 'malformed-json': {
      const text = toJsonText(Object.fromEntries(params));
      return {
        method: 'POST',
        query: withQuery(''),
        contentType: 'application/json',
        body: Buffer.from(text.slice(0, Math.max(1, text.length - 1)) + '\u0000', 'utf8'),
      };
    }
    case 'wrong-type':
      return {
        method: 'POST',
        query: withQuery(''),
        contentType: 'text/xml',
        body: Buffer.from(`<x>${flat(params)}</x>`, 'utf8'),
      };
  }
}

/** A describable form of a request, for failure messages. */
export const describeRequest = (
  method: string,
  path: string,
  e: { contentType?: string; body?: Buffer },
): string =>
  `${method} ${path} ${e.contentType ?? ''} ${e.body ? e.body.toString('utf8').slice(0, 400) : ''}`;
