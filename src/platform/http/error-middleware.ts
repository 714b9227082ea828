/**
 * The one place errors become answers: AppError as is; body-parser and store failures mapped to
 * their contract status; anything else a 500 without internals (logged with the request id).
 * Which errors are store outages the store adapter tells, through the `isStoreUnavailable` port.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError } from '../app-error.js';
import type { Metrics } from '../metrics.js';
import { baseUrlOf, requestIdOf, sendReply } from './mount-routes.js';
import type { RouteDef } from './route-def.js';

/** Tells a store outage (connection lost, timeout…) from a programming error; the store provides it. */
export type StoreOutageCheck = (err: unknown) => boolean;

export function toAppError(
  err: unknown,
  bodyLimit: string,
  isStoreUnavailable: StoreOutageCheck,
  limitName?: string,
): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number } | undefined;
  if (e?.type === 'entity.too.large') return AppError.tooLarge(bodyLimit, limitName);
  if (e?.type === 'entity.parse.failed') return AppError.badRequest('Malformed JSON body');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return AppError.unsupportedMediaType(['utf-8']);
  if (e?.type === 'request.aborted') return AppError.badRequest('Request aborted');
  if (e?.type === 'parameters.too.many') return AppError.tooLarge(bodyLimit, limitName);
  if (isStoreUnavailable(err)) return AppError.storeUnavailable();
  if (
    e &&
    (e.status ?? e.statusCode) &&
    (e.status ?? e.statusCode)! < 500 &&
    (e.status ?? e.statusCode)! >= 400
  ) {
    return new AppError((e.status ?? e.statusCode)!, 'bad_request', 'Bad request');
  }
  return AppError.internal();
}

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(AppError.notFound('Route not found'));
}

export function errorHandler(opts: {
  logger: Logger;
  bodyLimit: string;
  metrics: Metrics;
  isStoreUnavailable: StoreOutageCheck;
  publicBaseUrl?: string;
}): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const def = res.locals.routeDef as RouteDef | undefined;
    const appErr = toAppError(
      err,
      def?.bodyLimit?.size ?? opts.bodyLimit,
      opts.isStoreUnavailable,
      def?.bodyLimit?.name,
    );
    if (appErr.code === 'store_unavailable') opts.metrics.storeErrors.inc({ operation: 'request' });
    const log = (req as { log?: Logger }).log ?? opts.logger;
    if (appErr.status >= 500) log.error({ err }, 'request failed');
    // refused credentials are worth an operator's eye (a platform with a stale token): the reason,
    // which is fixed text and never carries the credential, at info; other refusals at debug
    else if (appErr.status === 401 || appErr.status === 403)
      log.info({ code: appErr.code, status: appErr.status, reason: appErr.message }, 'request refused');
    else log.debug({ code: appErr.code, status: appErr.status, reason: appErr.message }, 'request refused');
    if (res.headersSent) return res.end();
    if (def?.renderError) {
      try {
        return sendReply(res, {
          ...def.renderError(appErr, {
            baseUrl: baseUrlOf(req, opts.publicBaseUrl),
            params: req.params as Record<string, string>,
          }),
          headers: appErr.headers,
        });
      } catch (renderErr) {
        log.error({ err: renderErr }, 'error renderer failed');
      }
    }
    for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
    res.status(appErr.status).json({ ...appErr.toBody(), requestId: requestIdOf(req) });
  };
}
