/**
 * The whole service on a real port with one of everything the public APIs need: an IVR app with
 * the demo agent and its channel, an API app holding every scope, an API key, a hosted and a
 * custom model connection, a data table with an encrypted column, a test suite and a run, and a
 * sandbox line. Every request goes through `call`, which records the exchange, so a test can
 * search all answers it received.
 */
import fc from 'fast-check';
import { signHs256, type Config } from '../../src/platform/index.js';
import { MemoryStore, type Store } from '../../src/store/index.js';
import type { GatewayOptions } from '../../src/compose.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';
import { send, type RawAnswer, type RawRequest } from './raw-http.js';

export const ALL_APP_SCOPES = ['chat-history', 'batch-tests', 'assist-import-export', 'tables'];
export const TABLE = 'fuzz_rows';
export const SUITE = 'smoke';

export interface Exchange {
  /** A label naming the request, e.g. "create API key". */
  label: string;
  request: RawRequest;
  answer: RawAnswer;
}

export interface ApiClient {
  clientId: string;
  clientSecret: string;
  token: (claims?: Record<string, unknown>) => string;
}

export interface SecurityFixture {
  gw: RunningGateway;
  store: Store;
  ivr: IvrApp;
  client: ApiClient;
  apiKey: string;
  hostedConnectionId: string;
  apiConnectionId: string;
  sandbox: { phoneNumber: string; pin: string; secret: string };
  runId: string;
  exchanges: Exchange[];
  call: (label: string, req: RawRequest) => Promise<RawAnswer>;
  /** JSON request with the admin token; the answer body parsed. */
  admin: (
    label: string,
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; body: any }>;
  /** JSON request with extra headers (auth, x-api-key); the answer body parsed. */
  json: (
    label: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => Promise<{ status: number; body: any }>;
  close: () => Promise<void>;
}

const parse = (text: string): any => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

export const RELAXED_LIMITS: GatewayOptions = {
  rateLimits: {
    botApi: { perMinute: 1_000_000, perHour: 10_000_000 },
    tables: { perMinute: 1_000_000, perHour: 10_000_000 },
  },
  testRuns: { rateLimit: false },
};

export const hostedKey = (tag: string): string => `sk-hosted-${tag}-0123456789abcdefghijklmnop`;

export interface RecordingClient {
  exchanges: Exchange[];
  call: (label: string, req: RawRequest) => Promise<RawAnswer>;
  json: (
    label: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => Promise<{ status: number; body: any }>;
  admin: (
    label: string,
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; body: any }>;
  /** A fetch (for the sandbox caller) that records every exchange under `label`. */
  fetch: (label: string) => typeof fetch;
}

/** A client of the running gateway that records every request and its answer. */
export function recordingClient(gw: RunningGateway): RecordingClient {
  const exchanges: Exchange[] = [];
  const call = async (label: string, req: RawRequest): Promise<RawAnswer> => {
    const answer = await send(gw.url, req);
    exchanges.push({ label, request: req, answer });
    return answer;
  };
  const json = async (
    label: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const a = await call(label, {
      method,
      path,
      headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: a.status, body: parse(a.text) };
  };
  const admin = (label: string, method: string, path: string, body?: unknown) =>
    json(label, method, path, { Authorization: `Bearer ${gw.config.adminToken}` }, body);
  const recordingFetch =
    (label: string): typeof fetch =>
    async (input, init) => {
      const res = await fetch(input, init);
      const text = await res.text();
      const url = new URL(String(input instanceof Request ? input.url : input));
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
      const body =
        typeof init?.body === 'string'
          ? init.body
          : init?.body instanceof URLSearchParams
            ? init.body.toString()
            : undefined;
      exchanges.push({
        label,
        request: {
          method: init?.method ?? 'GET',
          path: `${url.pathname}${url.search}`,
          headers,
          ...(body !== undefined ? { body } : {}),
        },
        answer: {
          status: res.status,
          headers: Object.fromEntries(res.headers.entries()),
          text,
          contentType: res.headers.get('content-type') ?? '',
        },
      });
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
  return { exchanges, call, json, admin, fetch: recordingFetch };
}

export async function startSecurityGateway(
  opts: { config?: Partial<Config>; options?: GatewayOptions; keyTag?: string } = {},
): Promise<SecurityFixture> {
  const store = new MemoryStore(testPrefix());
  const gw = await startGateway({
    store,
    ...(opts.config ? { config: opts.config } : {}),
    options: opts.options ?? RELAXED_LIMITS,
  });
  const { exchanges, call, json, admin } = recordingClient(gw);
  const expectStatus = (what: string, r: { status: number; body: unknown }, status: number) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as any;
  };

  const ivr = await setupIvrApp(gw, { name: 'Security app' });
  const created = expectStatus(
    'API app',
    await admin('create API app', 'POST', `/api/admin/apps/${ivr.streamId}/api-apps`, {
      name: 'all scopes',
      scopes: ALL_APP_SCOPES,
    }),
    201,
  );
  const client: ApiClient = {
    clientId: created.clientId,
    clientSecret: created.clientSecret,
    token: (claims = {}) =>
      signHs256({ appId: created.clientId, sub: 'u-security', ...claims }, created.clientSecret),
  };
  const apiKey = expectStatus(
    'API key',
    await admin('create API key', 'POST', '/api/admin/api-keys', {
      name: 'all',
      scopes: ['connections:view', 'connections:manage'],
    }),
    201,
  ).apiKey as string;
  const keyHeader = { 'x-api-key': apiKey };
  const hosted = expectStatus(
    'hosted connection',
    await json('create hosted connection', 'POST', '/api/public/connections', keyHeader, {
      provider: 'HostedModelA',
      connectionName: 'Hosted',
      model: 'model-a',
      fields: { API_KEY: hostedKey(opts.keyTag ?? 'fixture') },
    }),
    201,
  );
  const custom = expectStatus(
    'API connection',
    await json('create API connection', 'POST', '/api/public/connections', keyHeader, {
      provider: 'API',
      connectionName: 'Custom',
      model: 'custom-1',
      fields: {},
      promptVars: [],
      customVars: [],
      endpointUrl: 'https://models.example.com/v1/chat/completions',
      headers: [{ key: 'Authorization', value: `Bearer ${hostedKey('header')}` }],
      payload: { model: 'custom-1', max_tokens: 16, messages: [{ role: 'user', content: '{{prompt}}' }] },
      outputPath: 'choices[0].message.content',
      status: 'FINALIZED',
      isEnable: true,
    }),
    201,
  );
  expectStatus(
    'table',
    await admin('define table', 'PUT', `/api/admin/tables/${TABLE}`, {
      columns: [
        { name: 'name', type: 'string', maxLength: 50 },
        { name: 'qty', type: 'number', default: 1 },
        { name: 'due', type: 'date' },
        { name: 'ssn', type: 'string', encrypted: true },
        { name: 'ref', type: 'string', unique: true },
      ],
      access: { [ivr.streamId]: { read: true, write: true } },
    }),
    200,
  );
  expectStatus(
    'suite',
    await admin('define suite', 'PUT', `/api/admin/apps/${ivr.streamId}/testsuites/${SUITE}`, {
      utterances: [
        { utterance: 'book a table', intent: 'BookTable' },
        { utterance: 'the weather on mars', intent: 'None' },
      ],
    }),
    200,
  );
  const run = expectStatus(
    'run',
    await json(
      'launch run',
      'POST',
      `/api/public/bot/${ivr.streamId}/testsuite/${SUITE}/run`,
      { auth: client.token() },
      {},
    ),
    202,
  );
  const sb = expectStatus(
    'sandbox',
    await admin('enable sandbox', 'PUT', `/api/admin/apps/${ivr.streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 100,
    }),
    200,
  );

  return {
    gw,
    store,
    ivr,
    client,
    apiKey,
    hostedConnectionId: hosted.connectionId,
    apiConnectionId: custom.connectionId,
    sandbox: { phoneNumber: sb.phoneNumber, pin: sb.pin, secret: sb.secret },
    runId: run._id,
    exchanges,
    call,
    admin,
    json,
    async close() {
      await gw.close();
      await store.close();
    },
  };
}

/** A bounded preview of a value: strings cut, nesting shown to 6 levels, at most 1,500 characters. */
function preview(v: unknown, depth = 0): string {
  if (typeof v === 'string')
    return JSON.stringify(v.length > 200 ? `${v.slice(0, 200)}...(${v.length} chars)` : v);
  if (typeof v === 'function') return 'fn';
  if (v === null || typeof v !== 'object') return String(v);
  if (depth >= 6) return Array.isArray(v) ? '[...deep]' : '{...deep}';
  if (Buffer.isBuffer(v)) return `Buffer(${v.length})`;
  if (Array.isArray(v))
    return `[${v
      .slice(0, 10)
      .map((x) => preview(x, depth + 1))
      .join(',')}${v.length > 10 ? ',...' : ''}]`;
  return `{${Object.entries(v)
    .slice(0, 12)
    .map(([k, x]) => `${JSON.stringify(k)}:${preview(x, depth + 1)}`)
    .join(',')}}`;
}
const short = (v: unknown): string => {
  const s = preview(v);
  return s.length > 1500 ? `${s.slice(0, 1500)}...` : s;
};

/**
 * Checks a property with `numRuns` runs, prints one line with the run count and duration, and
 * fails with a short report (seed, path, counterexample cut to size, the first error).
 */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  numRuns: number,
  prop: fc.IAsyncProperty<Ts>,
): Promise<void> {
  const started = Date.now();
  // FC_SEED (and FC_PATH) replay a reported failure.
  const replay = process.env.FC_SEED
    ? { seed: Number(process.env.FC_SEED), ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) }
    : {};
  const details = await fc.check(prop, { numRuns, endOnFailure: true, ...replay });
  console.log(
    `[security] ${name}: numRuns=${numRuns} (ran ${details.numRuns}) in ${Date.now() - started} ms`,
  );
  if (details.failed) {
    const err =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${name}: property failed (seed ${details.seed}, path "${details.counterexamplePath}")\ncounterexample: ${short(details.counterexample)}\n${err.slice(0, 2500)}`,
    );
  }
}

/** Runs `fn` and prints one line with the property's run count and duration. */
export async function timed<T>(name: string, numRuns: number, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    console.log(`[security] ${name}: numRuns=${numRuns} in ${Date.now() - started} ms`);
  }
}
