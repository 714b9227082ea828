/**
 * Who may read /metrics (it names app ids and the service's load): a caller with the Bearer
 * METRICS_TOKEN, or an address in METRICS_NETWORKS (loopback by default: a scraper beside the
 * service, or behind a trusted proxy the address the proxy saw). Anyone else gets 401 with the
 * contract's error body, without a metric being read.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../app-error.js';
import { inSubnets, subnetList } from '../credential-guesses.js';
import { safeEqual } from '../secrets.js';

export function metricsGate(opts: { token?: string; networks: string[] }): RequestHandler {
  const networks = subnetList(opts.networks);
  return (req, _res, next) => {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (opts.token && m && safeEqual(m[1]!.trim(), opts.token)) return next();
    if (inSubnets(networks, req.ip ?? '')) return next();
    next(
      AppError.unauthorized(
        'Metrics are read with the METRICS_TOKEN, or from an address in METRICS_NETWORKS',
      ).expecting({
        challenge: 'Bearer realm="metrics"',
        path: 'headers.authorization',
      }),
    );
  };
}
