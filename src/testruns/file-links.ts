/**
 * Signed, expiring download links for result files: `<base>/api/public/testruns/files/<fileId>?exp=<ms>&sig=<mac>`
 * where mac = HMAC-SHA256 over "<fileId>.<exp>" with a key derived (HKDF) from MASTER_KEY, base64url.
 * The link needs no auth header. A wrong or missing signature (tampered fileId, exp or sig) is
 * "invalid" (403); a genuine link past its expiry is "expired" (410).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from '../platform/index.js';

export const FILE_PATH = '/api/public/testruns/files';

export type LinkCheck = 'ok' | 'invalid' | 'expired';

export class FileLinks {
  private readonly key: Buffer;

  constructor(
    masterKey: Buffer,
    private readonly ttlMs: number,
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', masterKey, Buffer.alloc(0), 'ivr-gateway/testruns/file-links/v1', 32),
    );
  }

  private mac(fileId: string, exp: string): string {
    return createHmac('sha256', this.key).update(`${fileId}.${exp}`, 'utf8').digest('base64url');
  }

  url(baseUrl: string, fileId: string, nowMs = Date.now()): string {
    const exp = String(nowMs + this.ttlMs);
    return `${baseUrl}${FILE_PATH}/${encodeURIComponent(fileId)}?exp=${exp}&sig=${this.mac(fileId, exp)}`;
  }

  check(fileId: string, exp: string | undefined, sig: string | undefined, nowMs = Date.now()): LinkCheck {
    if (!exp || !sig || !/^\d{1,16}$/.test(exp)) return 'invalid';
    if (!safeEqual(sig, this.mac(fileId, exp))) return 'invalid';
    return Number(exp) < nowMs ? 'expired' : 'ok';
  }
}
