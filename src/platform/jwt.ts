/**
 * HS256 JWT verification for the `auth` header and the IVR webhook `token`: the algorithm is
 * pinned (alg none, HS384, HS512, RS and ES algorithms are refused before any key is used),
 * `appId` is required, `exp`/`nbf` are honoured, and the signing secret is looked up by `appId`.
 * The signature check is an HMAC-SHA256 compared in constant time (this runs on every webhook turn;
 * jsonwebtoken's verify first tries the secret as a public key, which costs ~0.5 ms).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from './app-error.js';

export interface VerifiedToken {
  appId: string;
  sub?: string;
  claims: Record<string, unknown>;
}

const MAX_TOKEN_LENGTH = 8192;
const CLOCK_TOLERANCE_S = 5;
const B64URL = /^[A-Za-z0-9_-]*$/;

function decodePart(part: string): Record<string, unknown> {
  if (!B64URL.test(part)) throw AppError.invalidJwt();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw AppError.invalidJwt();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw AppError.invalidJwt();
  return value as Record<string, unknown>;
}

/**
 * Signatures already checked, by token text: the appId it carries, and per secret it was checked
 * with, the result. A webhook presents the same channel token on every turn of every call, so the
 * HMAC and the two JSON parses run once per token. A hit still needs the same secret from
 * `secretFor` (a rotated secret refuses old tokens at once; looked up by the secret, a value the
 * server holds on both sides, never compared with request data) and is checked against exp/nbf on
 * every use.
 */
const verified = new Map<string, { appId: string; bySecret: Map<string, VerifiedToken> }>();
const VERIFIED_MAX = 10_000;

function checkTimes(claims: Record<string, unknown>): void {
  const now = Date.now() / 1000;
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || now > claims.exp + CLOCK_TOLERANCE_S)) throw AppError.invalidJwt();
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || now < claims.nbf - CLOCK_TOLERANCE_S)) throw AppError.invalidJwt();
}

export async function verifyHs256(token: string, secretFor: (appId: string) => Promise<string | null>): Promise<VerifiedToken> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw AppError.invalidJwt();
  const known = verified.get(token);
  if (known) {
    const secret = await secretFor(known.appId);
    if (!secret) throw AppError.unauthorized();
    const result = known.bySecret.get(secret);
    if (result) {
      try {
        checkTimes(result.claims);
      } catch (err) {
        verified.delete(token);
        throw err;
      }
      return result;
    }
    verified.delete(token);
  }
  const parts = token.split('.');
  if (parts.length !== 3) throw AppError.invalidJwt();
  const [h, p, sig] = parts as [string, string, string];
  const header = decodePart(h);
  if (header.alg !== 'HS256') throw AppError.invalidJwt();
  const claims = decodePart(p);
  const appId = claims.appId;
  if (typeof appId !== 'string' || appId.length === 0 || appId.length > 200) throw AppError.invalidJwt();
  if (!B64URL.test(sig)) throw AppError.invalidJwt();
  const secret = await secretFor(appId);
  if (!secret) throw AppError.unauthorized();
  // compare the canonical base64url text, not decoded bytes: decoding ignores the last character's
  // unused bits, so several signature strings would otherwise pass for one token
  const expected = Buffer.from(createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url'), 'utf8');
  const given = Buffer.from(sig, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw AppError.invalidJwt();
  checkTimes(claims);
  // frozen: one result is shared by every request that presents this token
  const result: VerifiedToken = Object.freeze({ appId, sub: typeof claims.sub === 'string' ? claims.sub : undefined, claims: Object.freeze(claims) });
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
  verified.set(token, { appId, bySecret: new Map([[secret, result]]) });
  return result;
}

/** Mints an HS256 token (sandbox calls, tests, the README's examples). */
export function signHs256(claims: Record<string, unknown>, secret: string, expiresInS = 3600): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: expiresInS });
}
