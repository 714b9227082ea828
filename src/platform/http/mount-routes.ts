/**
 * Mounts route definitions on an Express app: authentication first (before a byte of the body is
 * read, so an anonymous flood costs no parsing), then the route's own body parsers and limits, zod
 * validation of params/query/body, the handler, and the reply. 405 for a known path with another
 * method.
 */
import type { Application, NextFunction, Request, RequestHandler, Response } from 'express';
import type { ZodType } from 'zod';
import { AppError } from '../app-error.js';
import type { Authenticator, Principal } from '../auth.js';
import { auditAuthorOf, auditDiff, type AuditSink } from '../audit-sink.js';
import { bodyParsers } from './body-parsers.js';
import { hostGuard } from './host-guard.js';
import type { RouteContext, RouteDef, RouteReply } from './route-def.js';

export interface MountOptions {
  authenticator: Authenticator;
  bodyLimit: string;
  publicBaseUrl?: string;
  /** Where changes made through the operator API are recorded. */
  audit?: AuditSink;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the audit trail records this request (a change through the operator API). */
const audited = (
  def: RouteDef,
  method: string,
  opts: MountOptions,
): opts is MountOptions & { audit: AuditSink } =>
  opts.audit !== undefined &&
  def.audit !== false &&
  def.auth.kind === 'admin' &&
  !READS.has(method.toUpperCase());

const issuesToDetails = (where: string, schema: ZodType, value: unknown): unknown => {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw AppError.validation(
    r.error.issues.map((i) => ({ msg: i.message, path: [where, ...i.path.map(String)].join('.') })),
  );
};

/** PUBLIC_BASE_URL, else the request's (checked by hostGuard before any handler runs). */
export const baseUrlOf = (req: Request, configured?: string): string =>
  configured ?? `${req.protocol}://${req.host ?? 'localhost'}`;

/** The id pino-http gave the request (a string from the app's genReqId, a number from its default); '' without one. */
export const requestIdOf = (req: Request): string => {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
};

const isPlainBody = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

export function sendReply(res: Response, reply: RouteReply): void {
  res.status(reply.status ?? 200);
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.xml !== undefined) {
    res.type(reply.contentType ?? 'application/voicexml+xml; charset=utf-8').send(reply.xml);
  } else if (reply.text !== undefined) {
    res.type(reply.contentType ?? 'text/plain; charset=utf-8').send(reply.text);
  } else if (reply.json !== undefined) {
    res.json(reply.json);
  } else {
    res.end();
  }
}

/** Writes a reply's event stream as it comes; waits for the socket to drain when it is full. */
async function streamReply(
  res: Response,
  reply: RouteReply & { events: AsyncIterable<string> },
): Promise<void> {
  res.status(reply.status ?? 200);
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  // no-transform: the compression middleware leaves the stream alone (it would hold events back)
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  try {
    for await (const chunk of reply.events) {
      if (res.destroyed) break;
      if (!res.write(chunk))
        await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } finally {
    res.end();
  }
}

/**
 * Every answer of a route is `Cache-Control: no-store` unless the route says otherwise (a public
 * grammar may be cached): API answers carry secrets (a rotated PIN, a minted token, a new API
 * key), tokens in submit URLs and tenants' data, none of which a shared or browser cache may keep.
 */
function withNoStore(reply: RouteReply): RouteReply {
  if (reply.events || Object.keys(reply.headers ?? {}).some((k) => k.toLowerCase() === 'cache-control'))
    return reply;
  return { ...reply, headers: { ...reply.headers, 'Cache-Control': 'no-store' } };
}

const originOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? ''}`;

/**
 * Authenticates the request from its headers, path and address alone, before the body parsers run:
 * a refused request is answered without its body being parsed (Node discards the unread rest).
 */
function authenticateFirst(def: RouteDef, opts: MountOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    opts.authenticator
      .authenticate(
        {
          headers: req.headers,
          params: req.params as Record<string, string>,
          ip: req.ip ?? '',
          method: req.method,
          origin: originOf(req),
        },
        def.auth,
      )
      .then((principal) => {
        res.locals.principal = principal;
        next();
      }, next);
  };
}

function handle(def: RouteDef, opts: MountOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const params = def.params ? issuesToDetails('params', def.params, req.params) : req.params;
      const origin = originOf(req);
      const principal = res.locals.principal as Principal;
      const rawQuery = { ...(req.query as Record<string, unknown>) };
      // no body at all reads as {}; a JSON `null` stays null, for the route's schema to refuse
      const rawBody: unknown = req.body === undefined ? {} : req.body;
      const mergedBody =
        def.mergeQueryIntoBody && isPlainBody(rawBody) ? { ...rawQuery, ...rawBody } : rawBody;
      const query = def.query ? issuesToDetails('query', def.query, rawQuery) : rawQuery;
      const body = def.body ? issuesToDetails('body', def.body, mergedBody) : mergedBody;
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const ctx: RouteContext = {
        params: params as Record<string, string>,
        query: query as Record<string, unknown>,
        body,
        headers: req.headers,
        principal,
        requestId: requestIdOf(req),
        baseUrl: baseUrlOf(req, opts.publicBaseUrl),
        origin,
        ip: req.ip ?? '',
        method: req.method,
        signal: controller.signal,
      };
      const audit = audited(def, req.method, opts) ? opts.audit : undefined;
      const auditing = def.audit || undefined;
      const state = auditing ? (c: RouteContext) => auditing.state(c) : undefined;
      const before = audit && state ? await state(ctx).catch(() => undefined) : undefined;
      const reply = withNoStore(await def.handler(ctx));
      if (audit && (reply.status ?? 200) < 400) {
        const after = state
          ? await state(ctx).catch(() => undefined)
          : req.method === 'DELETE'
            ? undefined
            : body;
        const { changes, truncated } = auditDiff(before, after);
        const app = (params as Record<string, string>)['streamId'];
        await audit.record({
          author: auditAuthorOf(principal),
          action: `${req.method} ${def.path}`,
          item: req.path,
          ...(app ? { app } : {}),
          status: reply.status ?? 200,
          changes,
          ...(truncated ? { truncated } : {}),
          requestId: ctx.requestId,
        });
      }
      if (reply.events) await streamReply(res, { ...reply, events: reply.events });
      else sendReply(res, reply);
    } catch (err) {
      next(err);
    }
  };
}

/** Mounts every route and the 405 answers; returns the list for OpenAPI. */
export function mountRoutes(app: Application, routes: RouteDef[], opts: MountOptions): void {
  // A path parameter that does not decode (e.g. `/ivr/hooks/%`) fails while Express matches the
  // route, before its `tag` runs: tag such paths up front so a route that renders its own errors
  // (the VoiceXML routes) still answers in its format, not JSON.
  const rendering = routes
    .filter((def) => def.renderError)
    .map((def) => ({
      def,
      re: new RegExp(
        `^${def.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`,
        'i',
      ),
    }));
  if (rendering.length) {
    app.use((req, res, next) => {
      const hit = rendering.find((r) => r.re.test(req.path));
      if (hit) res.locals.routeDef = hit.def;
      next();
    });
  }
  app.use(hostGuard(opts.publicBaseUrl));
  const methodsByPath = new Map<string, Set<string>>();
  for (const def of routes) {
    const methods = Array.isArray(def.method) ? def.method : [def.method];
    const parsers = bodyParsers(
      def.body || def.bodyTypes ? (def.bodyTypes ?? ['json']) : [],
      def.bodyLimit ?? { size: opts.bodyLimit },
    );
    const tag: RequestHandler = (_req, res, next) => {
      res.locals.routeDef = def;
      next();
    };
    for (const m of methods) {
      app[m](def.path, tag, authenticateFirst(def, opts), ...parsers, handle(def, opts));
      const set = methodsByPath.get(def.path) ?? new Set<string>();
      set.add(m.toUpperCase());
      if (m === 'get') set.add('HEAD');
      methodsByPath.set(def.path, set);
    }
  }
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods];
    const defForPath = routes.find((r) => r.path === path);
    app.all(path, (_req, res, next) => {
      res.locals.routeDef = defForPath;
      next(AppError.methodNotAllowed(allowed));
    });
  }
}
