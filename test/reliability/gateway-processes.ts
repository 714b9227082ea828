/**
 * The service as separate processes (`node --import tsx src/main.ts`), each on a loopback port
 * picked here, plus what the reliability suites do to them over HTTP only: provision an IVR app
 * through the operator API, and read a call's history through getMessages.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { demoAgentWith } from '../../src/agent/index.js';
import { createDemoConnection } from '../../sandbox/demo-connection.js';
import { signHs256 } from '../../src/platform/index.js';
import { freePort, spawnWatched, type WatchedProcess } from '../helpers/redis-processes.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface GatewayProcess {
  name: string;
  url: string;
  proc: WatchedProcess;
}

/** What all instances of one deployment share: one store, one key prefix, one master key. */
export function sharedEnv(redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: redisUrl,
    KEY_PREFIX: `rel-${randomUUID().slice(0, 8)}:`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: `rel-admin-${randomUUID()}`,
    LOG_LEVEL: 'warn',
    TURN_DEADLINE_MS: '1500',
    ...extra,
  };
}

/**
 * Starts one instance (from the sources by default; `args` are node's, e.g. a built entry) and
 * waits until /readyz answers 200, or until it exits (its output is in the
 * error then). There is no deadline of its own: start-up under tsx on a loaded machine takes what it
 * takes, and a process that neither gets ready nor exits is left to the caller's test timeout.
 */
export async function startGatewayProcess(
  name: string,
  env: Record<string, string>,
  args = ['--import', 'tsx', 'src/main.ts'],
): Promise<GatewayProcess> {
  const port = await freePort();
  const base = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
  };
  const proc = await spawnWatched(process.execPath, args, {
    cwd: ROOT,
    env: { ...base, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (!proc.alive()) throw new Error(`gateway ${name} exited:\n${proc.output()}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { name, url, proc };
    await sleep(100);
  }
}

async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(base + path, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export interface ProvisionedApp {
  streamId: string;
  /** Webhook path with its token (prefix any instance's base URL). */
  webhookPath: string;
  /** An `auth` JWT of an API app with the chat-history scope. */
  historyJwt: string;
}

/** An app with an agent (the demo agent by default), IVR settings, the channel and a history client. */
export async function provisionIvrApp(
  base: string,
  adminToken: string,
  opts: { agent?: unknown; settings?: Record<string, unknown> } = {},
): Promise<ProvisionedApp> {
  const must = (what: string, r: { status: number; body: any }, status = 200) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const admin = (method: string, path: string, body?: unknown) =>
    call(base, adminToken, method, `/api/admin${path}`, body);
  const { streamId } = must(
    'create app',
    await admin('POST', '/apps', { name: "Luigi's", language: 'en' }),
    201,
  ) as { streamId: string };
  const importer = must(
    'api app',
    await admin('POST', `/apps/${streamId}/api-apps`, { name: 'import', scopes: ['assist-import-export'] }),
    201,
  );
  const q = new URLSearchParams({ accountId: 'acc-1', orgId: 'org-1', type: 'skillGroups' });
  const imported = await call(
    base,
    '',
    'POST',
    `/assist/api/v1/public/analytics/${streamId}/storeAssistFunctionalities?${q}`,
    {
      data: [
        {
          _id: 'sg-reservations',
          name: 'Reservations',
          status: 'ACTIVE',
          isDefault: false,
          iId: streamId,
          createdByAId: 'a-1',
          skills: [],
        },
      ],
      metaData: { userId: 'u-importer', orgId: 'org-1', type: 'skillGroups', accountId: 'acc-1' },
    },
    {
      auth: signHs256({ appId: importer.clientId, sub: 'u-importer' }, importer.clientSecret),
      accountId: 'acc-1',
    },
  );
  must('skill group import', imported);
  await putAgentAndWait(
    (method, path, body) => call(base, adminToken, method, path, body),
    streamId,
    opts.agent ?? demoAgentWith(await createDemoConnection(base, adminToken)),
  );
  must(
    'settings',
    await admin('PUT', `/apps/${streamId}/ivr-settings`, { enabled: true, ...(opts.settings ?? {}) }),
  );
  const ch = must('channel', await admin('PUT', `/apps/${streamId}/channels/ivr`, { enabled: true }));
  const token = signHs256(
    { appId: ch.clientId, sub: '+15550001111', isAnonymous: true },
    ch.clientSecret,
    86_400,
  );
  const reader = must(
    'history client',
    await admin('POST', `/apps/${streamId}/api-apps`, { name: 'history', scopes: ['chat-history'] }),
    201,
  );
  return {
    streamId,
    webhookPath: `/ivr/hooks/${streamId}?token=${encodeURIComponent(token)}`,
    historyJwt: signHs256({ appId: reader.clientId, sub: 'u-auditor' }, reader.clientSecret, 3_600),
  };
}

/** Creates a model connection to a local endpoint (API key with connections:manage); its id. */
export function createModelConnection(
  base: string,
  adminToken: string,
  endpointUrl: string,
): Promise<string> {
  return createDemoConnection(base, adminToken, endpointUrl);
}

export interface HistoryLine {
  id: string;
  type: 'incoming' | 'outgoing';
  text: string;
  createdOn: string;
}

/** A call's messages, oldest first, through the public getMessages API. */
export async function callHistory(base: string, app: ProvisionedApp, callId: string): Promise<HistoryLine[]> {
  const q = new URLSearchParams({ userId: callId, channelType: 'ivr', limit: '100' });
  const res = await fetch(`${base}/api/public/bot/${app.streamId}/getMessages?${q}`, {
    headers: { auth: app.historyJwt },
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`getMessages: ${res.status} ${JSON.stringify(body)}`);
  const lines = (body.messages as any[]).map((m) => ({
    id: m._id,
    type: m.type,
    text: m.components?.[0]?.data?.text ?? '',
    createdOn: m.createdOn,
  }));
  return lines.sort(
    (a, b) =>
      a.createdOn.localeCompare(b.createdOn) || (a.type === b.type ? 0 : a.type === 'incoming' ? -1 : 1),
  );
}

export { deleteKeys } from '../helpers/redis-keys.js';
