/**
 * Authentication of the three kinds of caller: the operator (Bearer ADMIN_TOKEN, or the operator
 * console's session cookie, whose state-changing requests must come from this origin), API apps (the
 * `auth` header JWT, scoped, bound to the app in the path) and API keys (`x-api-key`, scoped,
 * stored only as a hash). Failed API-key attempts are limited per key prefix (the key's first
 * characters, its public part: 10 a minute, then that prefix is refused for a minute, so one key
 * cannot be guessed at) and per client address (20 a minute, then that address's wrong keys are
 * answered 429 for a minute). A valid key is never refused for its address's failures: behind one
 * NAT, another caller's bad keys do not lock it out. A Bearer admin token is counted before it is
 * compared, per address (credential-guesses.ts): a limited address is refused without a comparison.
 */
import { AppError } from './app-error.js';
import { verifyHs256, type VerifiedTokenCache } from './jwt.js';
import { safeEqual, sha256 } from './secrets.js';

/** How much of an API key is its public part: `ak-` and 8 characters of the random part. */
const KEY_PREFIX_LENGTH = 11;
import type { RateLimiterFactory } from './rate-limiter.js';
import type { Metrics } from './metrics.js';
import { createCredentialGuesses, type CredentialGuesses } from './credential-guesses.js';
import { assertSameOrigin, consoleSessionIdOf, type ConsoleSessionLookup } from './console-session.js';
import { assertRole, neededRole, type Role, type RoleGrant } from './auth-roles.js';

/** Scopes whose every request reads (a read-only token may use them with any method). */
const READ_SCOPES = new Set(['chat-history']);

/** Personal API tokens of operator accounts start with this (sent as `Authorization: Bearer pat_…`). */
export const PERSONAL_TOKEN_PREFIX = 'pat_';

/** An operator account as a credential shows it (its grants read at each request: a change holds at once). */
export interface AccountIdentity {
  accountId: string;
  email: string;
  grants: RoleGrant[];
}

/** Finds the enabled account of a personal API token (null: unknown, revoked, or its account disabled). */
export interface PersonalTokenLookup {
  findPersonalToken(
    token: string,
  ): Promise<(AccountIdentity & { tokenId: string; tokenName: string }) | null>;
}

export type AuthRequirement =
  | { kind: 'none' }
  /** The operator API: the admin token, a console session or a personal API token; `role` is the role needed (auth-roles.ts: by method when absent). */
  | { kind: 'admin'; role?: Role | 'self' }
  /** `appParam` names the path parameter that must equal the token's app's streamId (the public paths' own name for it). */
  | { kind: 'jwt'; scope: string; appParam?: string }
  | { kind: 'apiKey'; scope: string };

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'admin' }
  /** An operator account, signed in to the console (`session`) or with a personal API token (`token`). */
  | ({ kind: 'account'; via: 'session' | 'token'; tokenId?: string; tokenName?: string } & AccountIdentity)
  | { kind: 'app'; clientId: string; streamId: string; scopes: string[]; sub?: string }
  | { kind: 'apiKey'; id: string; scopes: string[] };

/**
 * What each kind of caller is expected to send, as a refusal names it: the `WWW-Authenticate`
 * challenge (RFC 9110) and the credential's place, the `path` of the error entry.
 */
export const CREDENTIALS = {
  admin: { challenge: 'Bearer realm="operator"', path: 'headers.authorization' },
  jwt: { challenge: 'JWT realm="api", header="auth"', path: 'headers.auth' },
  apiKey: { challenge: 'ApiKey realm="connections", header="x-api-key"', path: 'headers.x-api-key' },
  webhookToken: { challenge: 'JWT realm="ivr-webhook", query="token"', path: 'query.token' },
} as const;

export interface CredentialLookup {
  findApiApp(clientId: string): Promise<{ streamId: string; secret: string; scopes: string[] } | null>;
  findApiKeyByHash(hash: string): Promise<{ id: string; scopes: string[] } | null>;
}

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
  ip: string;
  /** The HTTP method (default GET): a console session's state-changing requests are checked for their origin. */
  method?: string;
  /** This service's origin as the request reached it (scheme and Host). */
  origin?: string;
}

export interface Authenticator {
  authenticate(req: AuthRequest, requirement: AuthRequirement): Promise<Principal>;
}

const header = (req: AuthRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export interface AuthenticatorOptions {
  adminToken: string;
  lookup: CredentialLookup;
  rateLimiters: RateLimiterFactory;
  verifiedTokens?: VerifiedTokenCache;
  /** Console sessions: their cookie is the operator's credential on operator routes. */
  consoleSessions?: ConsoleSessionLookup;
  /** PUBLIC_BASE_URL, an origin console requests may also come from. */
  publicBaseUrl?: string;
  /** The count of attempts at the admin token, shared with the console's sign-in (one is made without it). */
  adminGuesses?: CredentialGuesses;
  /** Where refused guesses are counted, when no `adminGuesses` is given. */
  metrics?: Metrics;
  /** Personal API tokens of operator accounts (without it a `pat_` Bearer is a wrong admin token). */
  personalTokens?: PersonalTokenLookup;
}

export function createAuthenticator(opts: AuthenticatorOptions): Authenticator {
  const { adminToken, lookup } = opts;
  const addressFailures = opts.rateLimiters({
    name: 'api-key-failures',
    points: 20,
    durationS: 60,
    blockDurationS: 60,
  });
  const prefixFailures = opts.rateLimiters({
    name: 'api-key-prefix-failures',
    points: 10,
    durationS: 60,
    blockDurationS: 60,
  });
  const guesses =
    opts.adminGuesses ??
    createCredentialGuesses({
      rateLimiters: opts.rateLimiters,
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
    });

  async function admin(req: AuthRequest): Promise<Principal> {
    const h = header(req, 'authorization');
    const sessionId = h === undefined && opts.consoleSessions ? consoleSessionIdOf(req.headers) : undefined;
    if (sessionId !== undefined) {
      const holder = await opts.consoleSessions!.holderOf(sessionId);
      if (holder) {
        assertSameOrigin({ method: req.method ?? 'GET', headers: req.headers }, [
          req.origin,
          opts.publicBaseUrl,
        ]);
        return holder.kind === 'admin' ? { kind: 'admin' } : { ...holder, kind: 'account', via: 'session' };
      }
    }
    const m = /^Bearer\s+(.+)$/i.exec(h ?? '');
    // no credential at all is no guess: refused without counting
    if (!m) throw AppError.unauthorized('Invalid or missing admin token');
    const given = m[1]!.trim();
    if (given.startsWith(PERSONAL_TOKEN_PREFIX) && opts.personalTokens) {
      // a personal token is looked up by its hash; a wrong one counts as a guess like a wrong admin token
      const found = given.length <= 200 ? await opts.personalTokens.findPersonalToken(given) : null;
      if (!(await guesses.attempt(req.ip, () => found !== null)) || !found)
        throw AppError.unauthorized('Invalid or missing admin token');
      const { tokenId, tokenName, ...identity } = found;
      return { kind: 'account', via: 'token', tokenId, tokenName, ...identity };
    }
    if (!(await guesses.attempt(req.ip, () => safeEqual(given, adminToken))))
      throw AppError.unauthorized('Invalid or missing admin token');
    return { kind: 'admin' };
  }

  /** An account's role on the route (the admin token holds every role). */
  async function operator(req: AuthRequest, role: Role | 'self' | undefined): Promise<Principal> {
    const principal = await admin(req);
    // 'self': an operator's own account (its password, its tokens), whatever its roles
    if (principal.kind === 'account' && role !== 'self') {
      const method = req.method ?? 'GET';
      const app = req.params['streamId'];
      assertRole(principal.grants, neededRole(role, method), {
        ...(app !== undefined ? { app } : {}),
        read: method === 'GET' || method === 'HEAD',
      });
    }
    return principal;
  }

  async function app(req: AuthRequest, scope: string, appParam?: string): Promise<Principal> {
    const token = header(req, 'auth');
    if (!token) throw AppError.unauthorized();
    let found: { streamId: string; secret: string; scopes: string[] } | null = null;
    const verified = await verifyHs256(
      token,
      async (clientId) => {
        found = await lookup.findApiApp(clientId);
        return found?.secret ?? null;
      },
      opts.verifiedTokens,
    );
    const apiApp = found as { streamId: string; secret: string; scopes: string[] } | null;
    if (!apiApp) throw AppError.unauthorized();
    if (appParam) {
      const pathApp = req.params[appParam];
      if (pathApp !== undefined && pathApp !== apiApp.streamId)
        throw AppError.unauthorized('Invalid SDK credentials: the token belongs to another app');
    }
    if (!apiApp.scopes.includes(scope)) throw AppError.forbidden();
    // a read-only token (the console hands one to a viewer) reads, and changes nothing: a GET, or
    // any request of a scope that only reads (the history's POST form takes its filters in a body)
    if (
      verified.claims.access === 'read' &&
      !READ_SCOPES.has(scope) &&
      !['GET', 'HEAD'].includes((req.method ?? 'GET').toUpperCase())
    ) {
      throw AppError.forbidden(
        'Permission denied: this token may only read (the console hands viewers a read-only token)',
      );
    }
    return {
      kind: 'app',
      clientId: verified.clientId,
      streamId: apiApp.streamId,
      scopes: apiApp.scopes,
      sub: verified.sub,
    };
  }

  async function apiKey(req: AuthRequest, scope: string): Promise<Principal> {
    const key = header(req, 'x-api-key');
    // the limiter key is a hash of the prefix, so no part of a key is kept in a store key name
    const prefix = key ? sha256(key.slice(0, KEY_PREFIX_LENGTH)).slice(0, 24) : null;
    if (prefix) {
      const gate = await prefixFailures.peek(prefix);
      if (!gate.allowed) throw AppError.rateLimited(gate.msBeforeNext / 1000);
    }
    const found = key && key.length <= 200 ? await lookup.findApiKeyByHash(sha256(key)) : null;
    if (!found) {
      // an address past its limit is answered 429, and its failures count no further per prefix
      const byAddress = await addressFailures.consume(req.ip);
      if (!byAddress.allowed) throw AppError.rateLimited(byAddress.msBeforeNext / 1000);
      const byPrefix = prefix ? await prefixFailures.consume(prefix) : null;
      if (byPrefix && !byPrefix.allowed) throw AppError.rateLimited(byPrefix.msBeforeNext / 1000);
      throw AppError.unauthorized();
    }
    if (!found.scopes.includes(scope)) throw AppError.forbidden();
    return { kind: 'apiKey', id: found.id, scopes: found.scopes };
  }

  const check = (req: AuthRequest, requirement: AuthRequirement): Promise<Principal> => {
    switch (requirement.kind) {
      case 'none':
        return Promise.resolve({ kind: 'anonymous' });
      case 'admin':
        return operator(req, requirement.role);
      case 'jwt':
        return app(req, requirement.scope, requirement.appParam);
      case 'apiKey':
        return apiKey(req, requirement.scope);
    }
  };

  return {
    async authenticate(req, requirement) {
      try {
        return await check(req, requirement);
      } catch (err) {
        // every refusal names the credential it expected, whichever check refused
        if (err instanceof AppError && requirement.kind !== 'none')
          throw err.expecting(CREDENTIALS[requirement.kind]);
        throw err;
      }
    },
  };
}
