/**
 * The OpenTelemetry SDK, loaded and started (telemetry.ts) only when an OTLP endpoint is configured: a Node tracer
 * provider (context kept in AsyncLocalStorage), W3C trace-context propagation, and a batch
 * processor exporting spans with OTLP/HTTP (JSON). Everything else uses the API alone
 * (`trace.getTracer('ivr-gateway')`), which stays a no-op while this is not started.
 */
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

import type { Telemetry, TelemetryOptions } from './telemetry.js';

/** Registers the global tracer provider, context manager and propagator; once per process. */
export function startSdk(opts: TelemetryOptions): Telemetry {
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': opts.serviceName, 'service.instance.id': opts.instanceId }),
    ),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: opts.tracesUrl }),
        opts.exportDelayMs !== undefined ? { scheduledDelayMillis: opts.exportDelayMs } : {},
      ),
    ],
  });
  // the default context manager (AsyncLocalStorage), and W3C trace context alone as the propagator
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return { shutdown: () => provider.shutdown() };
}
