/**
 * Sandbox login attempts without a store write: the login document carries an attempt id sealed
 * with MASTER_KEY (AES-256-GCM, so it cannot be forged or altered) that names the sandbox number,
 * an expiry and a random id. Nothing is stored when it is issued; a successful login claims the id
 * (set-if-absent until the expiry), so a captured successful submission cannot be replayed.
 */
import { randomUUID } from 'node:crypto';
import type { Sealer } from '../platform/index.js';

export interface SandboxAttempt {
  id: string;
  expiresAt: number;
}

export class SandboxAttempts {
  constructor(
    private readonly sealer: Sealer,
    private readonly ttlMs: number,
  ) {}

  issue(phoneNumber: string): string {
    return this.sealer.seal(JSON.stringify({ n: phoneNumber, x: Date.now() + this.ttlMs, r: randomUUID() }));
  }

  /** The attempt when `sealed` is one this service issued for this number and it has not expired; else null. */
  read(sealed: string, phoneNumber: string): SandboxAttempt | null {
    let claims: { n?: unknown; x?: unknown; r?: unknown };
    try {
      claims = JSON.parse(this.sealer.open(sealed)) as typeof claims;
    } catch {
      return null;
    }
    if (
      claims.n !== phoneNumber ||
      typeof claims.x !== 'number' ||
      typeof claims.r !== 'string' ||
      claims.x <= Date.now()
    )
      return null;
    return { id: claims.r, expiresAt: claims.x };
  }
}
