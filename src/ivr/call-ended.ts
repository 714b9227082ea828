/**
 * Whether a stored call session (its JSON text) belongs to a call that has ended: what the memory
 * store's call bound needs to drop finished calls first. A cheap text test first, so that a
 * session of a live call is not parsed on every commit.
 */
import type { CallSession } from './call-session.js';

export function callEnded(raw: string): boolean {
  if (!raw.includes('"ended":true')) return false;
  try {
    return (JSON.parse(raw) as Partial<CallSession>).ended === true;
  } catch {
    return false;
  }
}
