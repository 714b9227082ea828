/** Secret generation, hashing and constant-time comparison: the only place these are done. */
import { createHmac, hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const sha256 = (value: string): string => hash('sha256', value, 'hex');

/** Compares two secrets in constant time (hashing first so lengths do not leak). */
export function safeEqual(a: string, b: string): boolean {
  const ha = hash('sha256', a, 'buffer') as unknown as Buffer;
  const hb = hash('sha256', b, 'buffer') as unknown as Buffer;
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** HMAC-SHA-256 of `value` under `key`, hex: a fingerprint of a secret that a copy of the store cannot test guesses against. */
export const hmacSha256 = (key: Buffer, value: string): string =>
  createHmac('sha256', key).update(value).digest('hex');

export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Digits a caller can type on a keypad. */
export function randomDigits(length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String(randomInt(0, 10));
  return s;
}
