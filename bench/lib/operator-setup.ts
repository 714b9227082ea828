/**
 * Sets up the benchmark app through the public operator API, as an operator would: create the app,
 * import the skill group the demo agent transfers to (the public skill-group import), set the demo
 * agent, enable the IVR settings and channel, and mint the channel token a VXML platform would
 * carry.
 */
import { z } from 'zod';
import { demoAgentWith } from '../../src/agent/index.js';
import { createDemoConnection } from '../../sandbox/demo-connection.js';
import { signHs256 } from '../../src/platform/index.js';

/** The parts of the operator API's answers this setup reads. */
const createdApp = z.object({ streamId: z.string() });
const credentials = z.object({ clientId: z.string(), clientSecret: z.string() });

export interface BenchApp {
  streamId: string;
  token: string;
  /** Path and query of the webhook, token included: `/ivr/hooks/<streamId>?token=…`. */
  webhookPath: string;
  /** The floor route with the same query: `/bench/floor/<streamId>?token=…`. */
  floorPath: string;
}

async function call(
  baseUrl: string,
  adminToken: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${adminToken}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  return { status: res.status, body: parsed };
}

function expectStatus(step: string, r: { status: number; body: unknown }, status: number): void {
  if (r.status !== status) throw new Error(`${step}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
}

export async function setupDemoApp(baseUrl: string, adminToken: string, name = 'bench'): Promise<BenchApp> {
  const admin = (method: string, path: string, body?: unknown) =>
    call(baseUrl, adminToken, method, path, body);
  const app = await admin('POST', '/api/admin/apps', { name, language: 'en' });
  expectStatus('create app', app, 201);
  const { streamId } = createdApp.parse(app.body);

  const importer = await admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
    name: 'assist import',
    scopes: ['assist-import-export'],
  });
  expectStatus('create api app', importer, 201);
  const importerCredentials = credentials.parse(importer.body);
  const importToken = signHs256(
    { appId: importerCredentials.clientId, sub: 'u-bench' },
    importerCredentials.clientSecret,
  );
  const q = new URLSearchParams({ accountId: 'acc-1', orgId: 'org-1', type: 'skillGroups' });
  const imported = await fetch(
    `${baseUrl}/assist/api/v1/public/analytics/${streamId}/storeAssistFunctionalities?${q}`,
    {
      method: 'POST',
      headers: { auth: importToken, accountId: 'acc-1', 'Content-Type': 'application/json' },
      body: JSON.stringify({
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
        metaData: { userId: 'u-bench', orgId: 'org-1', type: 'skillGroups', accountId: 'acc-1' },
      }),
    },
  );
  if (imported.status !== 200)
    throw new Error(`skill group import: HTTP ${imported.status} ${await imported.text()}`);

  const agent = await admin(
    'PUT',
    `/api/admin/apps/${streamId}/agent`,
    demoAgentWith(await createDemoConnection(baseUrl, adminToken)),
  );
  expectStatus('set agent', agent, 202);
  // the intent model trains in the background: the bench calls the agent once it is live
  for (let status = agent; (status.body as { state?: string }).state !== 'ready';) {
    if ((status.body as { state?: string }).state === 'failed')
      throw new Error(`agent training failed: ${JSON.stringify(status.body)}`);
    await new Promise((r) => setTimeout(r, 50));
    status = await admin('GET', `/api/admin/apps/${streamId}/agent/status`);
    expectStatus('agent status', status, 200);
  }
  expectStatus(
    'ivr settings',
    await admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, { enabled: true }),
    200,
  );
  const channel = await admin('PUT', `/api/admin/apps/${streamId}/channels/ivr`, { enabled: true });
  expectStatus('enable channel', channel, 200);
  const channelCredentials = credentials.parse(channel.body);
  const token = signHs256(
    { appId: channelCredentials.clientId, sub: '+15550001111', isAnonymous: true },
    channelCredentials.clientSecret,
    86_400,
  );
  const query = `?token=${encodeURIComponent(token)}`;
  return {
    streamId,
    token,
    webhookPath: `/ivr/hooks/${encodeURIComponent(streamId)}${query}`,
    floorPath: `/bench/floor/${encodeURIComponent(streamId)}${query}`,
  };
}
