/**
 * An agent upload answers 202 at once and trains in the background: these helpers wait (polling
 * its status) until the upload is live, so that a test's calls meet the agent it uploaded.
 */
import type { AgentStatus } from '../../src/admin/index.js';

export type AdminCall = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: any }>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the app's agent status until the latest upload's training is over (ready or failed). */
export async function waitUntilAgentTrained(admin: AdminCall, streamId: string): Promise<AgentStatus> {
  for (;;) {
    const r = await admin('GET', `/api/admin/apps/${streamId}/agent/status`);
    if (r.status !== 200) throw new Error(`agent status: ${r.status} ${JSON.stringify(r.body)}`);
    const status = r.body as AgentStatus;
    if (status.state !== 'training') return status;
    await sleep(25);
  }
}

/** Polls the app's agent status until its latest upload is live; throws when its training failed. */
export async function waitUntilAgentLive(admin: AdminCall, streamId: string): Promise<AgentStatus> {
  const status = await waitUntilAgentTrained(admin, streamId);
  if (status.state === 'failed') throw new Error(`agent training failed: ${JSON.stringify(status)}`);
  return status;
}

/** PUTs an agent (202 expected, else the answer is thrown) and waits until it is live. */
export async function putAgentAndWait(
  admin: AdminCall,
  streamId: string,
  agent: unknown,
): Promise<AgentStatus> {
  const r = await admin('PUT', `/api/admin/apps/${streamId}/agent`, agent);
  if (r.status !== 202) throw new Error(`set agent: ${r.status} ${JSON.stringify(r.body)}`);
  return waitUntilAgentLive(admin, streamId);
}
