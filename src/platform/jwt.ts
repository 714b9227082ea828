/**
 * HS256 JWT verification for the `auth` header and the IVR webhook `token`: the algorithm is
 * pinned (alg none, HS384, HS512, RS and ES algorithms are refused before any key is used), `appId` is
 * required, `exp`/`nbf` are honoured, and the signing secret is looked up by `appId`.
 */
import jwt from 'jsonwebtoken';
import { AppError } from './app-error.js';

export interface VerifiedToken {
  appId: string;
  sub?: string;
  claims: Record<string, unknown>;
}

const MAX_TOKEN_LENGTH = 8192;

/** Reads the unverified header and appId; throws invalidJwt for anything malformed. */
function peek(token: string): { alg: string; appId: string } {
  if (token.length > MAX_TOKEN_LENGTH || token.split('.').length !== 3) throw AppError.invalidJwt();
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded.payload !== 'object' || decoded.payload === null) throw AppError.invalidJwt();
  const appId = (decoded.payload as Record<string, unknown>).appId;
  if (typeof appId !== 'string' || appId.length === 0 || appId.length > 200) throw AppError.invalidJwt();
  return { alg: String(decoded.header.alg), appId };
}

export async function verifyHs256(token: string, secretFor: (appId: string) => Promise<string | null>): Promise<VerifiedToken> {
  const { alg, appId } = peek(token);
  if (alg !== 'HS256') throw AppError.invalidJwt();
  const secret = await secretFor(appId);
  if (!secret) throw AppError.unauthorized();
  let claims: Record<string, unknown>;
  try {
    claims = jwt.verify(token, secret, { algorithms: ['HS256'], clockTolerance: 5 }) as Record<string, unknown>;
  } catch {
    throw AppError.invalidJwt();
  }
  return { appId, sub: typeof claims.sub === 'string' ? claims.sub : undefined, claims };
}

/** Mints an HS256 token (sandbox calls, tests, the README's examples). */
export function signHs256(claims: Record<string, unknown>, secret: string, expiresInS = 3600): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: expiresInS });
}
