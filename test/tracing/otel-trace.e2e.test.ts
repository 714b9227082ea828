/**
 * OpenTelemetry end to end: the service as a process (`src/main.ts`, as it is deployed) with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP collector (a real HTTP server taking
 * the exporter's JSON), a call whose requests carry a W3C `traceparent`, and what came out: the
 * spans the collector received after a graceful stop (the queue is flushed then), the history
 * messages' traceId and the log lines' trace_id. Without the variable, nothing is exported, and
 * history still takes an incoming traceparent's trace id (a caller's own trace finds its turn).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAgentWith } from '../../src/agent/index.js';
import {
  startGatewayProcess,
  provisionIvrApp,
  createModelConnection,
  type GatewayProcess,
  type ProvisionedApp,
} from '../reliability/gateway-processes.js';
import { startModelStub, type ModelStub } from '../reliability/model-stub.js';
import { submitUrlOf, turnOf } from '../helpers/ivr-call.js';

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  service: string;
}

/** A local OTLP/HTTP collector: every span of every export request it received (JSON bodies). */
async function startCollector(port = 0) {
  const spans: ExportedSpan[] = [];
  let requests = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      requests++;
      if (
        req.method !== 'POST' ||
        req.url !== '/v1/traces' ||
        !String(req.headers['content-type']).includes('application/json')
      ) {
        res.statusCode = 400;
        res.end();
        return;
      }
      const body = JSON.parse(raw) as { resourceSpans: any[] };
      for (const rs of body.resourceSpans) {
        const service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            const attributes = Object.fromEntries(
              (s.attributes as any[]).map((a) => [a.key, Object.values(a.value)[0]]),
            );
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              attributes,
              service,
            });
          }
        }
      }
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    requests: () => requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One call through the webhook as a VXML browser makes it, each request with its own headers. */
async function callWith(
  gw: GatewayProcess,
  app: ProvisionedApp,
  turns: Array<{ message?: string; event?: string; headers?: Record<string, string> }>,
): Promise<string> {
  const callId = `call-${hex(6)}`;
  let url = `${gw.url}${app.webhookPath}`;
  let xml = '';
  for (const [i, t] of turns.entries()) {
    const params: Record<string, string> =
      i === 0
        ? { callId, message: '', from: '+15550007777', to: 'agent' }
        : t.event
          ? { callId, turn: turnOf(xml)!, event: t.event }
          : {
              callId,
              turn: `${turnOf(xml)}.0`,
              message: t.message!,
              interpretation: t.message!,
              confidence: '0.9',
              inputmode: 'voice',
            };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...t.headers },
      body: new URLSearchParams(params).toString(),
    });
    xml = await res.text();
    expect(res.status).toBe(200);
    url = submitUrlOf(xml) ?? url;
  }
  return callId;
}

/** A call's incoming messages with their traceId, through getMessages (includeTraceId). */
async function incomingTraceIds(
  gw: GatewayProcess,
  app: ProvisionedApp,
  callId: string,
): Promise<Array<{ text: string; traceId?: string }>> {
  const q = new URLSearchParams({
    userId: callId,
    channelType: 'ivr',
    limit: '100',
    forward: 'true',
    includeTraceId: 'true',
  });
  const res = await fetch(`${gw.url}/api/public/bot/${app.streamId}/getMessages?${q}`, {
    headers: { auth: app.historyJwt },
  });
  const body = (await res.json()) as { messages: any[] };
  expect(res.status).toBe(200);
  return body.messages
    .filter((m) => m.type === 'incoming')
    .map((m) => ({ text: m.components[0].data.text, ...(m.traceId ? { traceId: m.traceId } : {}) }));
}

const logLines = (gw: GatewayProcess): any[] =>
  gw.proc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

async function startGateway(
  collectorUrl: string | undefined,
  model: ModelStub,
): Promise<{ gw: GatewayProcess; app: ProvisionedApp }> {
  const adminToken = `otel-admin-${hex(8)}`;
  const gw = await startGatewayProcess('otel', {
    STORE: 'memory',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'info',
    ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
    ...(collectorUrl
      ? { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: 'ivr-gateway-under-test' }
      : {}),
  });
  // `log: true`: each turn's transcript line, the log line the assertions read
  const app = await provisionIvrApp(gw.url, adminToken, {
    agent: demoAgentWith(await createModelConnection(gw.url, adminToken, model.url)),
    settings: { log: true },
  });
  return { gw, app };
}

describe('OpenTelemetry with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let model: ModelStub;
  let gw: GatewayProcess;
  let app: ProvisionedApp;
  const traceId = hex(16);
  const parentSpanId = hex(8);
  const continueParentId = hex(8);
  let callId: string;
  let incoming: Array<{ text: string; traceId?: string }>;

  beforeAll(async () => {
    collector = await startCollector();
    model = await startModelStub();
    ({ gw, app } = await startGateway(collector.url, model));
    callId = await callWith(gw, app, [
      {},
      // a question, then the turn that asks the model, both in the caller's trace
      {
        message: 'what are your opening hours',
        headers: { traceparent: `00-${traceId}-${parentSpanId}-01` },
      },
      { event: 'continue', headers: { traceparent: `00-${traceId}-${continueParentId}-01` } },
      { message: 'book a table' },
    ]);
    incoming = await incomingTraceIds(gw, app, callId);
    // a graceful stop exports what is still queued (the batch's delay has not passed yet)
    expect(await gw.proc.stop('SIGTERM', 15_000)).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await gw?.proc.stop('SIGKILL');
    await model?.close();
    await collector?.close();
  });

  it('when a request carries a traceparent, then its turn, store calls, agent step, model call and history write are spans of that trace, under its parent', () => {
    const inTrace = collector.spans.filter((s) => s.traceId === traceId);
    const children = (parent: ExportedSpan | undefined, name: string) =>
      inTrace.filter((s) => s.parentSpanId === parent?.spanId && s.name === name);
    // the question's request
    const [server] = inTrace.filter((s) => s.parentSpanId === parentSpanId);
    expect(server).toMatchObject({
      name: 'POST /ivr/hooks/:streamId',
      service: 'ivr-gateway-under-test',
      attributes: { 'http.response.status_code': 200 },
    });
    const [turn, ...moreTurns] = children(server, 'ivr.turn');
    expect(moreTurns).toEqual([]);
    expect(turn).toMatchObject({
      attributes: {
        'ivr.call_id': callId,
        'ivr.stream_id': app.streamId,
        'ivr.event': 'input',
        'ivr.outcome': 'continue',
      },
    });
    expect(children(turn, 'agent.step')).toEqual([
      expect.objectContaining({
        attributes: expect.objectContaining({ 'agent.intent': 'AskQuestion', 'agent.action': 'continue' }),
      }),
    ]);
    const [history] = children(turn, 'history.write');
    expect(history).toMatchObject({ attributes: { 'history.messages': 2 } });
    // the turn's lock and load, under the turn; its commit with history, under the history write
    expect(children(turn, 'store.lockAndRead')).toHaveLength(1);
    expect(children(history, 'store.commitTurn')).toHaveLength(1);
    // the continue request: the model call, under the agent's step
    const [next] = inTrace.filter((s) => s.parentSpanId === continueParentId);
    const [continued] = children(next, 'ivr.turn');
    expect(continued).toMatchObject({ attributes: { 'ivr.event': 'continue' } });
    const [step] = children(continued, 'agent.step');
    const [model, ...moreModels] = children(step, 'model.call');
    expect(moreModels).toEqual([]);
    expect(model).toMatchObject({
      attributes: { 'model.provider': 'API', 'model.connection_id': expect.any(String) },
    });
    expect(model!.attributes['model.error']).toBeUndefined();
    // reading the connection under the model call; the model answer kept with the turn under the step
    expect(children(model, 'store.get').length + children(model, 'store.hgetall').length).toBeGreaterThan(0);
    expect(children(step, 'store.writeHeld')).toHaveLength(1);
    // every span of the trace hangs from the caller's two parents
    const ids = new Set([parentSpanId, continueParentId, ...inTrace.map((s) => s.spanId)]);
    expect(inTrace.filter((s) => !ids.has(s.parentSpanId!))).toEqual([]);
  });

  it('when a request carries a traceparent, then the history message of its turn has that trace id; without one, a trace of its own', () => {
    expect(incoming).toEqual([
      { text: 'what are your opening hours', traceId },
      { text: 'book a table', traceId: expect.stringMatching(/^[0-9a-f]{32}$/) },
    ]);
    const own = incoming[1]!.traceId!;
    expect(own).not.toBe(traceId);
    // that trace was exported too, as a new trace (its request span has no parent)
    expect(collector.spans.filter((s) => s.traceId === own).map((s) => s.name)).toEqual(
      expect.arrayContaining(['ivr.turn', 'agent.step', 'history.write']),
    );
    expect(
      collector.spans.find((s) => s.traceId === own && s.name.startsWith('POST '))?.parentSpanId,
    ).toBeUndefined();
  });

  it('when a request carries a traceparent, then its log lines carry the trace id', () => {
    const transcript = logLines(gw).filter((l) => l.msg === 'turn transcript' && l.callId === callId);
    expect(transcript).toHaveLength(4);
    expect(transcript[1]).toMatchObject({
      heard: 'what are your opening hours',
      trace_id: traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(transcript[1].span_id).toBe(collector.spans.find((s) => s.parentSpanId === parentSpanId)!.spanId);
  });
});

describe('OpenTelemetry without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let model: ModelStub;
  let gw: GatewayProcess;
  let app: ProvisionedApp;
  let callId: string;
  let incoming: Array<{ text: string; traceId?: string }>;
  const traceId = hex(16);

  beforeAll(async () => {
    // at the exporter's default address: an SDK started without an endpoint would export there
    collector = await startCollector(4318).catch(() => startCollector());
    model = await startModelStub();
    ({ gw, app } = await startGateway(undefined, model));
    callId = await callWith(gw, app, [
      {},
      { message: 'what are your opening hours', headers: { traceparent: `00-${traceId}-${hex(8)}-01` } },
    ]);
    incoming = await incomingTraceIds(gw, app, callId);
    expect(await gw.proc.stop('SIGTERM', 15_000)).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await gw?.proc.stop('SIGKILL');
    await model?.close();
    await collector?.close();
  });

  it('when the service ran and stopped, then no span was exported, and the log lines carry no trace id', () => {
    expect(collector.requests()).toBe(0);
    const transcript = logLines(gw).filter((l) => l.msg === 'turn transcript' && l.callId === callId);
    expect(transcript).toHaveLength(2);
    expect(transcript.some((l) => 'trace_id' in l || 'span_id' in l)).toBe(false);
  });

  it('when a request carries a traceparent, then the history message still takes its trace id', () => {
    expect(incoming).toEqual([{ text: 'what are your opening hours', traceId }]);
  });
});
