/**
 * HS256 JWT verification for the `auth` header and the IVR webhook `token` (jsonwebtoken): the
 * algorithm is pinned (alg none, HS384, HS512, RS and ES algorithms are refused before any key is
 * looked up), the claim `appId` (the API app's or channel's client id: the wire name) is required,
 * `exp`/`nbf` are honoured, and the signing secret is looked up by that client id, read before the
 * signature is checked. Past this file the client id is called `clientId`.
 *
 * A webhook presents the same channel token on every turn of every call, so a verified token may be
 * kept in a cache (an lru-cache the composition root makes): a hit still looks up the secret and
 * needs the very secret it was verified with (a rotated secret refuses the token at once), and an
 * entry lives no longer than the token's `exp`.
 */
import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from './app-error.js';
import { safeEqual } from './secrets.js';

export interface VerifiedToken {
  /** The token's `appId` claim: the client id of the API app (or channel) that signed it. */
  clientId: string;
  sub?: string;
  claims: Record<string, unknown>;
}

/** Verified tokens by their text, each with the secret that verified it. */
export interface VerifiedTokenCache {
  get(token: string): { result: VerifiedToken; secret: string } | undefined;
  set(token: string, entry: { result: VerifiedToken; secret: string }, options?: { ttl?: number }): unknown;
  delete(token: string): unknown;
}

/**
 * Why a token was refused, carried as the AppError's `reason` (the answer's message stays the
 * contract's): not a JWT at all, not HS256, a claim missing (`appId`, or `exp` where required), a
 * client id no secret is kept for here (another app's token), a signature that does not match,
 * past its `exp`, before its `nbf`.
 */
export const TOKEN_REFUSAL_REASONS = [
  'missing_token',
  'malformed',
  'wrong_algorithm',
  'missing_claim',
  'wrong_app',
  'bad_signature',
  'expired',
  'not_yet_valid',
] as const;
export type TokenRefusalReason = (typeof TOKEN_REFUSAL_REASONS)[number];

const refused = (reason: TokenRefusalReason): AppError => AppError.invalidJwt().because(reason);
const unknownClient = (): AppError =>
  AppError.unauthorized().because('wrong_app' satisfies TokenRefusalReason);

/** The reason jsonwebtoken gave for refusing a token that decoded. */
function reasonOf(err: unknown): TokenRefusalReason {
  if (err instanceof jwt.TokenExpiredError) return 'expired';
  if (err instanceof jwt.NotBeforeError) return 'not_yet_valid';
  if (err instanceof jwt.JsonWebTokenError && /signature/.test(err.message)) return 'bad_signature';
  return 'malformed';
}

const MAX_TOKEN_LENGTH = 8192;
const CLOCK_TOLERANCE_S = 5;

export async function verifyHs256(
  token: string,
  secretFor: (clientId: string) => Promise<string | null>,
  cache?: VerifiedTokenCache,
): Promise<VerifiedToken> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw refused('malformed');
  const known = cache?.get(token);
  if (known) {
    const secret = await secretFor(known.result.clientId);
    if (!secret) throw unknownClient();
    const exp = known.result.claims.exp;
    if (typeof exp === 'number' && Date.now() / 1000 >= exp + CLOCK_TOLERANCE_S) {
      cache?.delete(token);
      throw refused('expired');
    }
    if (safeEqual(secret, known.secret)) return known.result;
    cache?.delete(token);
  }
  const unverified = jwt.decode(token, { complete: true });
  if (!unverified || typeof unverified.payload !== 'object') throw refused('malformed');
  if (unverified.header.alg !== 'HS256') throw refused('wrong_algorithm');
  const clientId: unknown = unverified.payload.appId;
  if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 200)
    throw refused('missing_claim');
  const secret = await secretFor(clientId);
  if (!secret) throw unknownClient();
  let claims: jwt.JwtPayload;
  try {
    // a secret KeyObject, not the string: given a string, jsonwebtoken first tries to read it as a
    // public key, which costs more than the whole HMAC check (docs/benchmarks.md)
    claims = jwt.verify(token, createSecretKey(Buffer.from(secret, 'utf8')), {
      algorithms: ['HS256'],
      clockTolerance: CLOCK_TOLERANCE_S,
    }) as jwt.JwtPayload;
  } catch (err) {
    throw refused(reasonOf(err));
  }
  const result: VerifiedToken = Object.freeze({
    clientId,
    sub: typeof claims.sub === 'string' ? claims.sub : undefined,
    claims: Object.freeze(claims),
  });
  if (cache && (claims.nbf === undefined || claims.nbf <= Date.now() / 1000)) {
    const ttl =
      typeof claims.exp === 'number'
        ? Math.floor((claims.exp + CLOCK_TOLERANCE_S) * 1000 - Date.now())
        : undefined;
    if (ttl === undefined || ttl > 0) cache.set(token, { result, secret }, ttl === undefined ? {} : { ttl });
  }
  return result;
}

/** Mints an HS256 token (sandbox calls, tests, the README's examples). */
export function signHs256(claims: Record<string, unknown>, secret: string, expiresInS = 3600): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: expiresInS });
}
