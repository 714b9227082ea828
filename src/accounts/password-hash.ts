/**
 * Passwords are stored only as a memory-hard hash: scrypt (node:crypto) with N = 2^15, r = 8, p = 1
 * (32 MiB and about 50-100 ms a hash on this machine: the OWASP cheat sheet's floor is N = 2^17 with
 * r = 8 at 128 MiB, or N = 2^15 for interactive logins on small servers), a random 16-byte salt and a
 * 32-byte key. The stored string names its parameters (`scrypt$15$8$1$salt$key`), so stronger ones
 * can be brought in later and old hashes still check. Comparison is constant-time.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, logN, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !key) return false;
  const [n, rr, pp] = [Number(logN), Number(r), Number(p)];
  if (![n, rr, pp].every((v) => Number.isInteger(v) && v > 0) || n > 20) return false;
  const expected = Buffer.from(key, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'), n, rr, pp);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A hash of a random password, checked against when an email is unknown (so the answer takes as long). */
export const DECOY_HASH: Promise<string> = hashPassword(randomBytes(18).toString('base64url'));
