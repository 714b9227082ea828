/**
 * The request's span, mounted only when telemetry is on: the context of an incoming W3C
 * `traceparent` (a new trace without one), a server span named after the matched route, and that
 * context kept for everything the request runs, its body parsers' and response's listeners too.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import type { RouteDef } from './route-def.js';

const tracer = trace.getTracer('ivr-gateway');

export function traceContext(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    // the path only: a query may carry a secret (the webhook's token)
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    res.once('close', () => {
      const route = (res.locals.routeDef as RouteDef | undefined)?.path;
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    // listeners added from here on (body parsers, logging on finish) run in the request's context
    context.bind(ctx, req);
    context.bind(ctx, res);
    context.with(ctx, next);
  };
}
