/**
 * Framework-free route definitions: components describe their routes with zod schemas beside the
 * handler; platform/http mounts them on Express and generates OpenAPI from the same schemas.
 */
import type { ZodType } from 'zod';
import type { AuthRequirement, Principal } from '../auth.js';
import type { AppError } from '../app-error.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** `mergePatch`: a JSON merge patch (RFC 7386), `application/merge-patch+json`, parsed as JSON. */
export type BodyType = 'json' | 'mergePatch' | 'urlencoded' | 'multipart';

/** The media type of each body encoding. */
export const MEDIA: Record<BodyType, string> = {
  json: 'application/json',
  mergePatch: 'application/merge-patch+json',
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

export interface RouteContext<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | string[] | undefined>;
  principal: Principal;
  requestId: string;
  /** Absolute base URL of this service (PUBLIC_BASE_URL or derived from the request). */
  baseUrl: string;
  /** This service's origin as the request reached it: its scheme (https behind a trusted proxy that says so) and Host. */
  origin: string;
  ip: string;
  method: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export interface RouteReply {
  status?: number;
  json?: unknown;
  xml?: string;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /**
   * A stream of text written as it comes (Server-Sent Events): sent with `text/event-stream` and no
   * caching or compression; the reply ends when the iterable ends (the handler ends it on `signal`).
   */
  events?: AsyncIterable<string>;
}

/**
 * One route. `RouteDef` with no type arguments is a route of any shape (a component's route list):
 * `handler` is declared as a method so that a route typed by its own schemas still fits that list,
 * and mountRoutes only ever calls it with the context its schemas produced.
 */
export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod | HttpMethod[];
  /** Express-style path, e.g. /api/admin/apps/:streamId */
  path: string;
  summary: string;
  tags: string[];
  auth: AuthRequirement;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /**
   * The body's shape for the OpenAPI document when the handler validates the body itself (to list
   * every problem at once with its JSON path); `body` then stays `z.unknown()`.
   */
  documentedBody?: ZodType;
  /** Accepted request body encodings (default json when a body schema is given). */
  bodyTypes?: BodyType[];
  /**
   * This route's body limits instead of the service's, declared beside the route: `size` like 64kb;
   * `name` is the setting's or the reason's, for the 413; `maxKeys` the most object keys and array
   * elements of a JSON body (and fields of a form), checked before the body is parsed.
   */
  bodyLimit?: { size: string; name: string; maxKeys?: number };
  /** Merge query parameters into the body before validation (the body wins on a clash). */
  mergeQueryIntoBody?: boolean;
  responses: Record<number, { description: string; schema?: ZodType; contentType?: string }>;
  handler(ctx: RouteContext<P, Q, B>): Promise<RouteReply>;
  /**
   * The audit trail (audit-sink.ts) records every operator route that changes state (its auth is
   * `admin` and its method not GET): `false` for one that changes nothing (a sign-in, a check); `state`
   * reads the item the route changes, before and after, for a diff (without it the diff is the body).
   */
  audit?: false | { state(ctx: RouteContext<P, Q, B>): Promise<unknown> };
  /** Renders this route's errors (e.g. as VoiceXML) instead of the JSON error body. */
  renderError?: (err: AppError, ctx: { baseUrl: string; params: Record<string, string> }) => RouteReply;
}

/** Identity helper that keeps the handler's types tied to the schemas. */
export function defineRoute<P, Q, B>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> {
  return def;
}
