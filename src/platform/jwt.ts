/**
 * HS256 JWT verification for the `auth` header and the IVR webhook `token` (jsonwebtoken): the
 * algorithm is pinned (alg none, HS384, HS512, RS and ES algorithms are refused before any key is
 * looked up), `appId` is required, `exp`/`nbf` are honoured, and the signing secret is looked up by
 * the token's `appId`, read before the signature is checked.
 */
import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from './app-error.js';

export interface VerifiedToken {
  appId: string;
  sub?: string;
  claims: Record<string, unknown>;
}

const MAX_TOKEN_LENGTH = 8192;
const CLOCK_TOLERANCE_S = 5;

export async function verifyHs256(token: string, secretFor: (appId: string) => Promise<string | null>): Promise<VerifiedToken> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw AppError.invalidJwt();
  const unverified = jwt.decode(token, { complete: true });
  if (!unverified || unverified.header.alg !== 'HS256' || typeof unverified.payload !== 'object') throw AppError.invalidJwt();
  const appId = unverified.payload.appId;
  if (typeof appId !== 'string' || appId.length === 0 || appId.length > 200) throw AppError.invalidJwt();
  const secret = await secretFor(appId);
  if (!secret) throw AppError.unauthorized();
  let claims: jwt.JwtPayload;
  try {
    // a secret KeyObject, not the string: given a string, jsonwebtoken first tries to read it as a
    // public key, which costs more than the whole HMAC check (docs/benchmarks.md)
    claims = jwt.verify(token, createSecretKey(Buffer.from(secret, 'utf8')), { algorithms: ['HS256'], clockTolerance: CLOCK_TOLERANCE_S }) as jwt.JwtPayload;
  } catch {
    throw AppError.invalidJwt();
  }
  return { appId, sub: typeof claims.sub === 'string' ? claims.sub : undefined, claims };
}

/** Mints an HS256 token (sandbox calls, tests, the README's examples). */
export function signHs256(claims: Record<string, unknown>, secret: string, expiresInS = 3600): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: expiresInS });
}
