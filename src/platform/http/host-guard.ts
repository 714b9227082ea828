/**
 * The request's host and protocol, checked before any route builds a URL from them (webhook and
 * submit URLs, download links): the Host header (X-Forwarded-Host and -Proto from a trusted proxy)
 * must be a well-formed `host[:port]` and the protocol http or https; when PUBLIC_BASE_URL is set,
 * the host must be that URL's. Anything else is a 400 before a handler runs. A request without a
 * Host (HTTP/1.0) passes: nothing is built from it.
 */
import type { Request, RequestHandler } from 'express';
import { AppError } from '../app-error.js';

/** A DNS name or IPv4 address, or a bracketed IPv6 literal; then an optional port. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/** The hostname of a well-formed host header value (lower case, IPv6 in brackets), or null. */
export function hostnameOf(host: string): string | null {
  const m = HOST.exec(host);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) return null;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

export function hostGuard(publicBaseUrl?: string): RequestHandler {
  const expected = publicBaseUrl ? new URL(publicBaseUrl).hostname : null;
  return (req: Request, _res, next) => {
    const host = req.host;
    if (host === undefined) return next();
    const hostname = hostnameOf(host);
    if (hostname === null) return next(AppError.badRequest('Malformed Host header', 'headers.host'));
    if (req.protocol !== 'http' && req.protocol !== 'https')
      return next(AppError.badRequest('Malformed X-Forwarded-Proto header', 'headers.x-forwarded-proto'));
    if (expected !== null && hostname !== expected)
      return next(
        AppError.badRequest(
          `The Host header names another host than this service (${expected})`,
          'headers.host',
        ),
      );
    next();
  };
}
