/**
 * An incoming W3C traceparent names the trace of the caller's history message (its traceId), with
 * telemetry off as on; an invalid one, or none, leaves the message a trace id of its own. Telemetry
 * on starts the SDK (once per process, so after the suite with it off) exporting to a local sink.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { submitUrlOf, turnOf } from '../helpers/ivr-call.js';
import { makeRedisStore, redisAvailable } from '../helpers/test-stores.js';
import { signHs256, startTelemetry, type Telemetry } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe.skipIf(!redisAvailable()).each([false, true])('webhook traceparent (telemetry %s)', (telemetry) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let historyAuth: string;

  let sink: Server | undefined;
  let sdk: Telemetry | undefined;

  beforeAll(async () => {
    store = await makeRedisStore();
    if (telemetry) {
      // an OTLP endpoint that takes every export and keeps nothing
      const server = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
      sink = server;
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const tracesUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
      sdk = await startTelemetry({
        tracesUrl,
        serviceName: 'traceparent-test',
        instanceId: 'test',
        exportDelayMs: 50,
      });
    }
    gw = await startGateway({
      store,
      config: telemetry
        ? { telemetry: { tracesUrl: 'http://127.0.0.1/v1/traces', serviceName: 'traceparent-test' } }
        : {},
    });
    app = await setupIvrApp(gw);
    const client = await gw.admin('POST', `/api/admin/apps/${app.streamId}/api-apps`, {
      name: 'history reader',
      scopes: ['chat-history'],
    });
    historyAuth = signHs256({ appId: client.body.clientId }, client.body.clientSecret);
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
    await sdk?.shutdown();
    await new Promise<void>((r) => (sink ? sink.close(() => r()) : r()));
  });

  /** A call that starts, then says `text` in a request with these headers; its caller message's traceId. */
  async function callerTraceId(
    text: string,
    headers: Record<string, string | undefined>,
  ): Promise<string | undefined> {
    const callId = `call-${randomUUID()}`;
    const started = await gw.submit(app.webhookUrl, {
      callId,
      message: '',
      from: '+15550001111',
      to: 'agent',
    });
    const res = await fetch(submitUrlOf(started.xml)!, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(headers.traceparent ? { traceparent: headers.traceparent } : {}),
      },
      body: new URLSearchParams({
        callId,
        from: '+15550001111',
        turn: `${turnOf(started.xml)}.0`,
        message: text,
        interpretation: text,
        confidence: '0.900000',
        inputmode: 'voice',
      }).toString(),
    });
    expect(res.status).toBe(200);
    await res.text();
    const history = await fetch(`${gw.url}/api/public/bot/${app.streamId}/getMessages`, {
      method: 'POST',
      headers: { auth: historyAuth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: callId, channelType: 'ivr', limit: 100, includeTraceId: true }),
    });
    expect(history.status).toBe(200);
    const { messages } = (await history.json()) as {
      messages: Array<{ type: string; components: Array<{ data: { text: string } }>; traceId?: string }>;
    };
    const said = messages.filter((m) => m.type === 'incoming' && m.components[0]!.data.text === text);
    expect(said).toHaveLength(1);
    return said[0]!.traceId;
  }

  it('when a webhook request carries a valid traceparent, then the caller message of its turn has that trace id', async () => {
    const traceId = hex(16);
    expect(await callerTraceId('I want to book a table', { traceparent: `00-${traceId}-${hex(8)}-01` })).toBe(
      traceId,
    );
  });

  it('when the traceparent is of a later version with more fields, then its trace id is taken too', async () => {
    const traceId = hex(16);
    expect(
      await callerTraceId('I want to book a table', { traceparent: `01-${traceId}-${hex(8)}-00-more` }),
    ).toBe(traceId);
  });

  it('when the traceparent is invalid or absent, then the caller message has a trace id of its own', async () => {
    const zero = '0'.repeat(32);
    // telemetry on, the trace of the request's own span (a new one); off, a tr- id
    const own = telemetry ? /^[0-9a-f]{32}$/ : /^tr-[0-9a-f-]{36}$/;
    for (const headers of [
      {},
      { traceparent: `00-${zero}-${hex(8)}-01` },
      { traceparent: `ff-${hex(16)}-${hex(8)}-01` },
      { traceparent: 'not a traceparent' },
    ]) {
      expect(await callerTraceId('I want to book a table', headers), JSON.stringify(headers)).toMatch(own);
    }
  });
});
