/** An app's agent status as the API answers it, from what the store holds of its versions and upload. */
import type { AgentStatus } from './admin-schemas.js';

export function agentStatusOf(held: {
  live: string | null;
  liveSince: string | null;
  upload: Record<string, string>;
  draft: string | null;
}): AgentStatus | null {
  const { live, liveSince, upload, draft } = held;
  const since = { ...(liveSince ? { liveSince } : {}), ...(draft ? { draftVersion: draft } : {}) };
  if (upload.version) {
    return {
      state: upload.state === 'failed' ? 'failed' : 'training',
      liveVersion: live,
      latestVersion: upload.version,
      ...since,
      ...(upload.since ? { trainingSince: upload.since } : {}),
      ...(upload.error ? { error: upload.error } : {}),
    };
  }
  if (draft) return { state: 'ready', liveVersion: live, latestVersion: draft, ...since };
  return live ? { state: 'ready', liveVersion: live, latestVersion: live, ...since } : null;
}
