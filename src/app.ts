/**
 * Builds the Express app from injected dependencies; never reads the environment. Health,
 * readiness, OpenAPI (and its reader at /docs), the operator console (/console/) and metrics
 * routes (metrics with METRICS_TOKEN or from METRICS_NETWORKS only), the request's span
 * (telemetry on), request ids and logging, compression, the component routes, 404/405, and the
 * one error handler.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import compression from 'compression';
import { pinoHttp } from 'pino-http';
import type {
  AuditSink,
  Config,
  Logger,
  Metrics,
  Authenticator,
  RouteDef,
  StoreOutageCheck,
} from './platform/index.js';
import {
  AppError,
  apiDocs,
  buildOpenApi,
  consolePages,
  errorHandler,
  metricsGate,
  mountRoutes,
  notFoundHandler,
  scrubUrl,
  traceContext,
} from './platform/index.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  authenticator: Authenticator;
  routes: RouteDef[];
  isReady: () => Promise<boolean>;
  /** The store's test for an outage: such errors answer 503 store_unavailable. */
  isStoreUnavailable: StoreOutageCheck;
  /** Where changes made through the operator API are recorded (the audit trail). */
  audit?: AuditSink;
  /** Where the built operator console is (default: dist/console-client at the repository root). */
  consoleDir?: string;
}

/** The OpenAPI document's info (/openapi.json, and the console's generated types). */
export const API_INFO = { title: 'IVR gateway', version: '0.1.0' };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export function buildApp(deps: AppDeps): Express {
  const { config, logger, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.set('query parser', 'simple');

  // with telemetry on: the request's span, in an incoming traceparent's trace (first, so that every
  // log line of the request carries its ids)
  if (config.telemetry) app.use(traceContext());
  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: scrubUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug',
    }),
  );
  app.use((req, res, next) => {
    const end = metrics.httpDuration.startTimer({ method: req.method });
    res.on('finish', () =>
      end({
        route: (res.locals.routeDef as RouteDef | undefined)?.path ?? 'unmatched',
        status: String(res.statusCode),
      }),
    );
    next();
  });
  app.use(compression({ threshold: 1024 }));

  const openapi = buildOpenApi(deps.routes, API_INFO);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ok = await deps.isReady().catch(() => false);
    if (ok) res.json({ status: 'ready' });
    else res.status(503).json({ errors: [{ msg: 'Store unreachable', code: 'store_unavailable' }] });
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.get(
    '/metrics',
    metricsGate({
      networks: config.metricsNetworks,
      ...(config.metricsToken ? { token: config.metricsToken } : {}),
    }),
    async (_req, res) => {
      res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
    },
  );

  app.use(apiDocs());
  app.use(consolePages(deps.consoleDir ? { dir: deps.consoleDir } : {}));

  // the service's own GET paths answer other methods as the operator routes do: 405 with Allow
  app.all(['/healthz', '/readyz', '/openapi.json', '/metrics'], (_req, _res, next) =>
    next(AppError.methodNotAllowed(['GET', 'HEAD'])),
  );

  mountRoutes(app, deps.routes, {
    authenticator: deps.authenticator,
    bodyLimit: config.bodyLimit,
    publicBaseUrl: config.publicBaseUrl,
    ...(deps.audit ? { audit: deps.audit } : {}),
  });
  app.use(notFoundHandler());
  app.use(
    errorHandler({
      logger,
      bodyLimit: config.bodyLimit,
      metrics,
      isStoreUnavailable: deps.isStoreUnavailable,
      publicBaseUrl: config.publicBaseUrl,
    }),
  );
  return app;
}
