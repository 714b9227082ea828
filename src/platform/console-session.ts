/**
 * The operator console's session cookie and the cross-site check of cookie-authenticated requests.
 * The cookie is httpOnly, SameSite=Strict, Path=/ and Secure when the request came over https (or a
 * trusted proxy says so). Requests that change state with a cookie must come from this origin: an
 * `Origin` (or, without one, `Sec-Fetch-Site`) naming another site is refused, and so is a request
 * that carries neither, as no browser of today sends such a request.
 */
import { parse, serialize } from 'cookie';
import { AppError } from './app-error.js';

export const CONSOLE_SESSION_COOKIE = 'ivr_console_session';

/** Who holds a console session: the admin token, or an operator account (its grants as they are now). */
export type SessionHolder =
  | { kind: 'admin' }
  | {
      kind: 'account';
      accountId: string;
      email: string;
      grants: Array<{ role: 'viewer' | 'editor' | 'owner'; app?: string }>;
    };

/** Looks up console sessions (kept in the store by the console component). */
export interface ConsoleSessionLookup {
  isActive(sessionId: string): Promise<boolean>;
  /** Who holds an active session; null when it is unknown, over, or its account is disabled. */
  holderOf(sessionId: string): Promise<SessionHolder | null>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_ID = /^[A-Za-z0-9_-]{20,100}$/;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The session id of the request's console cookie, or undefined (absent or malformed). */
export function consoleSessionIdOf(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const raw = first(headers['cookie']);
  if (!raw) return undefined;
  const id = parse(raw)[CONSOLE_SESSION_COOKIE];
  return id && SESSION_ID.test(id) ? id : undefined;
}

/** The Set-Cookie value of a new session. */
export function consoleSessionCookie(sessionId: string, opts: { maxAgeS: number; secure: boolean }): string {
  return serialize(CONSOLE_SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: opts.maxAgeS,
    secure: opts.secure,
  });
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedConsoleSessionCookie(secure: boolean): string {
  return serialize(CONSOLE_SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: 0,
    expires: new Date(0),
    secure,
  });
}

const originOf = (url: string | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * Refuses (403 cross_site_request) a state-changing request that does not come from one of the
 * `allowed` origins (this service's own: the request's scheme and Host, and PUBLIC_BASE_URL's).
 */
export function assertSameOrigin(
  req: { method: string; headers: Record<string, string | string[] | undefined> },
  allowed: Array<string | undefined>,
): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const origins = new Set(allowed.map(originOf).filter((o): o is string => o !== undefined));
  const origin = first(req.headers['origin']);
  const site = first(req.headers['sec-fetch-site']);
  const ok = origin !== undefined && origin !== 'null' ? origins.has(origin) : site === 'same-origin';
  if (!ok || (site !== undefined && site !== 'same-origin')) {
    throw new AppError(
      403,
      'cross_site_request',
      'Cross-site request refused: a console request that changes state must come from this origin',
    );
  }
}

export const isConsoleSessionId = (id: string): boolean => SESSION_ID.test(id);
