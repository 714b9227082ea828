/**
 * OpenTelemetry here: `startTelemetry`, which loads and starts the SDK (otel-sdk.ts; a service
 * without an OTLP endpoint never loads it), and what the rest uses through the API alone
 * (`trace.getTracer('ivr-gateway')`, a no-op until the SDK is started): `inSpan` to run work in a
 * span, `activeTraceId`, and `traceFields`, the active span's ids for log lines.
 */
import {
  isSpanContextValid,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';

export interface TelemetryOptions {
  /** The OTLP/HTTP traces URL (config.telemetry.tracesUrl). */
  tracesUrl: string;
  serviceName: string;
  /** This instance's name (config.instanceId), as `service.instance.id`. */
  instanceId: string;
  /** The batch processor's longest wait before an export (ms; the SDK's default is 5 s). */
  exportDelayMs?: number;
}

export interface Telemetry {
  /** Exports the spans still queued and stops the provider (graceful stop). */
  shutdown(): Promise<void>;
}

/** Starts the SDK: the global tracer provider, context manager and propagator; once per process. */
export async function startTelemetry(opts: TelemetryOptions): Promise<Telemetry> {
  const { startSdk } = await import('./otel-sdk.js');
  return startSdk(opts);
}

/**
 * `trace_id` and `span_id` of the active span, for a log line; nothing without one (telemetry off).
 * A new object every time: pino's mixin merges the line's fields into it.
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const sc = span.spanContext();
  if (!isSpanContextValid(sc)) return {};
  const { traceId, spanId } = sc;
  return { trace_id: traceId, span_id: spanId };
}

/** The service's tracer (the API's no-op until the SDK is started). */
export const tracer = trace.getTracer('ivr-gateway');

/**
 * Runs `work` in a new active span, a child of the active one; the span ends when the work
 * settles, with an error status (and the error's name as `error.type`) when it fails.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', err instanceof Error ? err.name : 'error');
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Sets attributes on a span that records (none is built for the no-op's). */
export function annotate(span: Span, attributes: () => Attributes): void {
  if (span.isRecording()) span.setAttributes(attributes());
}

/** The active span's trace id (W3C, 32 hex digits); undefined without a valid one (telemetry off). */
export function activeTraceId(): string | undefined {
  const sc = trace.getActiveSpan()?.spanContext();
  return sc && isSpanContextValid(sc) ? sc.traceId : undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The trace id of an incoming W3C `traceparent` header (trace context level 1); undefined when
 * absent or invalid: version ff, an all-zero trace or parent id, several headers, or version 00 with
 * more fields. A later version may add fields after the four it shares with 00.
 */
export function incomingTraceId(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, parentId, , rest] = m;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return traceId;
}
