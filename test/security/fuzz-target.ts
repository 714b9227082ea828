/**
 * One endpoint as a fuzz target: the paths, credentials, query keys and bodies to draw from, and
 * a property that sends the drawn request and checks the answer against the rules (never a 5xx,
 * the error shape on JSON 4xx answers, VoiceXML where the route speaks it).
 */
import fc from 'fast-check';
import { checkAnswer, StatusTally, type DocSink } from './answer-rules.js';
import { hostileSegment, hostileString, pct, queryPair, toJsonText } from './hostile-values.js';
import { multipartBody, urlencoded } from './request-encoders.js';
import { send, type RawRequest } from './raw-http.js';
import { checkProperty } from './security-fixture.js';

export interface AuthVariant {
  label: string;
  headers: Record<string, string>;
  /** Requests with bad credentials come from another client address, so the lockout they earn does not block the valid ones. */
  localAddress?: string;
}

export type BodyEncoding = 'json' | 'urlencoded' | 'multipart';

export interface Target {
  name: string;
  methods: string[];
  path: fc.Arbitrary<string>;
  auth: fc.Arbitrary<AuthVariant>;
  /** Body values (JSON values); none for routes without a body. */
  body?: fc.Arbitrary<unknown>;
  encodings?: BodyEncoding[];
  queryKeys?: string[];
  /** Valid query pairs (raw, encoded) most runs start from. */
  baseQuery?: string[];
  headers?: Record<string, string>;
  vxml?: boolean;
}

/** A header value Node's client accepts: visible ASCII, at most 4,000 characters. */
export const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e]/g, '').slice(0, 4000);

/** A path with its `:params` replaced: mostly the valid values, sometimes hostile segments. */
export function pathArb(template: string, valid: Record<string, string>): fc.Arbitrary<string> {
  const names = [...template.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const segment = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(encodeURIComponent(valid[name] ?? 'x')) },
      { weight: 1, arbitrary: hostileSegment },
    );
  return fc
    .tuple(...names.map(segment))
    .map((values) => names.reduce((p, name, i) => p.replace(`:${name}`, values[i]!), template));
}

function encodeBody(value: unknown, enc: BodyEncoding): { body: Buffer; contentType: string } {
  const entries = (): Array<[string, unknown]> =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [['value', value]];
  if (enc === 'json')
    return { body: Buffer.from(toJsonText(value), 'utf8'), contentType: 'application/json' };
  if (enc === 'urlencoded')
    return {
      body: Buffer.from(urlencoded(entries()), 'utf8'),
      contentType: 'application/x-www-form-urlencoded',
    };
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  return {
    body: multipartBody(entries(), boundary),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Rarely, a body that is not what the route takes: malformed JSON, another media type, bytes that are not UTF-8. */
const oddBody = fc.constantFrom(
  { body: Buffer.from('{"a":', 'utf8'), contentType: 'application/json' },
  {
    body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    contentType: 'application/json',
  },
  { body: Buffer.from('<a/>', 'utf8'), contentType: 'application/xml' },
  { body: Buffer.from('{"a":1}', 'utf8'), contentType: 'application/json; charset=utf-16' },
  { body: Buffer.from('{}', 'utf8'), contentType: '' },
  { body: Buffer.from('\u0000\u0000', 'utf8'), contentType: 'application/json' },
);

/** A drawn request; the body is encoded when the request is sent (deep values overflow the generator's stack). */
export interface Drawn {
  method: string;
  path: string;
  headers: Record<string, string>;
  localAddress?: string;
  label: string;
  body: { value: unknown; enc: BodyEncoding } | { body: Buffer; contentType: string } | null;
}

export function requestArb(t: Target): fc.Arbitrary<Drawn> {
  const queryArb = fc
    .tuple(fc.boolean(), fc.array(queryPair(t.queryKeys ?? ['q']), { maxLength: 5 }))
    .map(([keepBase, pairs]) => {
      const all = [...(keepBase ? (t.baseQuery ?? []) : []), ...pairs];
      return all.length ? `?${all.join('&')}` : '';
    });
  const encodings = t.encodings ?? ['json'];
  const bodyArb: fc.Arbitrary<Drawn['body']> = t.body
    ? fc.oneof(
        { weight: 8, arbitrary: fc.record({ value: t.body, enc: fc.constantFrom(...encodings) }) },
        { weight: 1, arbitrary: oddBody },
      )
    : fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: oddBody });
  const extraHeaders = fc.option(
    fc.tuple(
      fc.constantFrom('accountId', 'bot-language', 'auth', 'x-api-key', 'content-encoding'),
      hostileString.map(headerSafe),
    ),
    { nil: undefined, freq: 5 },
  );
  return fc
    .record({
      method: fc.constantFrom(...t.methods),
      path: t.path,
      query: queryArb,
      auth: t.auth,
      body: bodyArb,
      extra: extraHeaders,
    })
    .map(({ method, path, query, auth, body, extra }) => {
      const headers: Record<string, string> = { ...(t.headers ?? {}), ...auth.headers };
      if (extra) headers[extra[0]] = extra[1];
      return {
        method,
        path: `${path}${query}`,
        headers,
        label: auth.label,
        body: method === 'GET' ? null : body,
        ...(auth.localAddress ? { localAddress: auth.localAddress } : {}),
      };
    });
}

/** The request as sent, and a short description of it for failure messages. */
export function toRaw(d: Drawn): { req: RawRequest; what: string } {
  const encoded = d.body === null ? null : 'value' in d.body ? encodeBody(d.body.value, d.body.enc) : d.body;
  const headers = { ...d.headers, ...(encoded ? { 'Content-Type': encoded.contentType } : {}) };
  const req: RawRequest = {
    method: d.method,
    path: d.path,
    headers,
    ...(encoded ? { body: encoded.body } : {}),
    ...(d.localAddress ? { localAddress: d.localAddress } : {}),
  };
  return {
    req,
    what: `${d.method} ${d.path} [${d.label}] ${encoded ? `${encoded.contentType} ${encoded.body.toString('utf8').slice(0, 300)}` : ''}`,
  };
}

/** Sends `numRuns` drawn requests to the target; returns the statuses seen. */
export async function fuzzTarget(
  baseUrl: string,
  t: Target,
  numRuns: number,
  docs: DocSink,
): Promise<StatusTally> {
  const tally = new StatusTally();
  await checkProperty(
    t.name,
    numRuns,
    fc.asyncProperty(requestArb(t), async (drawn) => {
      const { req, what } = toRaw(drawn);
      const a = await send(baseUrl, req);
      tally.add(a.status);
      checkAnswer(a, { what, vxml: Boolean(t.vxml), docs });
    }),
  );
  console.log(`[security] ${t.name} answers: ${tally.toString()}`);
  return tally;
}

/** A raw query pair, encoded. */
export const q = (k: string, v: string): string => `${pct(k)}=${pct(v)}`;
