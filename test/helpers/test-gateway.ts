/**
 * The whole service for end-to-end tests: composeGateway on a real store, listening on a real port,
 * plus helpers to set up an app with an agent and an IVR channel, and a collector that validates
 * every VoiceXML document the tests received against the W3C schema.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { composeGateway, type Gateway, type GatewayOptions } from '../../src/compose.js';
import { createLogger, signHs256, testConfig, type Config } from '../../src/platform/index.js';
import type { Store } from '../../src/store/index.js';
import { demoAgentWith } from '../../src/agent/index.js';
import { createDemoConnection } from '../../sandbox/demo-connection.js';
import { assertValidVxml } from './vxml-schema.js';
import { ADMIN_TOKEN, LogCapture } from './test-app.js';
import { putAgentAndWait } from './agent-upload.js';

export { ADMIN_TOKEN };

/** Every VoiceXML answer a test saw; `validateAll` fails the suite on one invalid document. */
export class DocumentCollector {
  readonly docs: string[] = [];
  add(xml: string): string {
    this.docs.push(xml);
    return xml;
  }
  async validateAll(): Promise<void> {
    for (let i = 0; i < this.docs.length; i += 50) await assertValidVxml(this.docs.slice(i, i + 50));
  }
  /** A fetch that records every VoiceXML body it receives (for the sandbox caller). */
  fetch(): typeof fetch {
    return async (input, init) => {
      const res = await fetch(input, init);
      const type = res.headers.get('content-type') ?? '';
      if (!type.includes('voicexml')) return res;
      const text = await res.text();
      this.add(text);
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
  }
}

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  config: Config;
  log: LogCapture;
  docs: DocumentCollector;
  admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  /** POSTs urlencoded params to a webhook URL, as a VXML browser does; records the document. */
  submit: (url: string, params: Record<string, string>) => Promise<{ status: number; xml: string }>;
  close: () => Promise<void>;
}

export async function startGateway(opts: {
  store: Store;
  config?: Partial<Config>;
  options?: GatewayOptions;
}): Promise<RunningGateway> {
  const config = testConfig(opts.config);
  const log = new LogCapture();
  const logger = createLogger({ level: 'debug', destination: log });
  const gateway = composeGateway({
    config,
    store: opts.store,
    logger,
    ...(opts.options ? { options: opts.options } : {}),
  });
  await gateway.start();
  const server: Server = await new Promise((resolve) => {
    const s = gateway.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const docs = new DocumentCollector();
  return {
    url,
    gateway,
    config,
    log,
    docs,
    async admin(method, path, body) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${config.adminToken}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async submit(target, params) {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      const xml = await res.text();
      docs.add(xml);
      return { status: res.status, xml };
    },
    async close() {
      await gateway.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface IvrApp {
  streamId: string;
  clientId: string;
  clientSecret: string;
  token: string;
  webhookUrl: string;
}

/** Creates an app with an agent (the demo agent by default), IVR settings and an enabled channel. */
export async function setupIvrApp(
  gw: RunningGateway,
  opts: { agent?: unknown; settings?: Record<string, unknown>; name?: string } = {},
): Promise<IvrApp> {
  const app = await gw.admin('POST', '/api/admin/apps', { name: opts.name ?? "Luigi's", language: 'en' });
  if (app.status !== 201) throw new Error(`create app: ${app.status} ${JSON.stringify(app.body)}`);
  const streamId = app.body.streamId as string;
  await importSkillGroup(gw, streamId, 'sg-reservations', 'Reservations');
  await putAgentAndWait(gw.admin, streamId, opts.agent ?? demoAgentWith(await createModelConnection(gw)));
  const settings = await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, {
    enabled: true,
    ...(opts.settings ?? {}),
  });
  if (settings.status !== 200)
    throw new Error(`settings: ${settings.status} ${JSON.stringify(settings.body)}`);
  const ch = await gw.admin('PUT', `/api/admin/apps/${streamId}/channels/ivr`, { enabled: true });
  if (ch.status !== 200) throw new Error(`channel: ${ch.status} ${JSON.stringify(ch.body)}`);
  const token = signHs256(
    { appId: ch.body.clientId, sub: '+15550001111', isAnonymous: true },
    ch.body.clientSecret,
    86_400,
  );
  return {
    streamId,
    clientId: ch.body.clientId,
    clientSecret: ch.body.clientSecret,
    token,
    webhookUrl: `${ch.body.webhookUrl}?token=${encodeURIComponent(token)}`,
  };
}

export { ADMIN_TOKEN as adminToken };

/** Creates a model connection through the public API (an unreachable model unless given); its id. */
export function createModelConnection(gw: RunningGateway, endpointUrl?: string): Promise<string> {
  return createDemoConnection(gw.url, gw.config.adminToken, endpointUrl);
}

/** Imports one skill group through the public skill-group import API, as a contact centre would. */
export async function importSkillGroup(
  gw: RunningGateway,
  streamId: string,
  id: string,
  name: string,
): Promise<void> {
  const client = await gw.admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
    name: 'assist import',
    scopes: ['assist-import-export'],
  });
  const jwtToken = signHs256({ appId: client.body.clientId, sub: 'u-importer' }, client.body.clientSecret);
  const q = new URLSearchParams({ accountId: 'acc-1', orgId: 'org-1', type: 'skillGroups' });
  const res = await fetch(
    `${gw.url}/assist/api/v1/public/analytics/${streamId}/storeAssistFunctionalities?${q}`,
    {
      method: 'POST',
      headers: { auth: jwtToken, accountId: 'acc-1', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        data: [
          {
            _id: id,
            name,
            status: 'ACTIVE',
            isDefault: false,
            iId: streamId,
            createdByAId: 'a-1',
            skills: [],
          },
        ],
        metaData: { userId: 'u-importer', orgId: 'org-1', type: 'skillGroups', accountId: 'acc-1' },
      }),
    },
  );
  if (res.status !== 200) throw new Error(`skill group import: ${res.status} ${await res.text()}`);
}
