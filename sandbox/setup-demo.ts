/**
 * Sets up the demo agent ("Luigi's") on a running gateway through the operator API, with its skill
 * group imported, its model connection created and the test sandbox enabled, and prints how to call it.
 *   npm run demo:setup -- --base http://127.0.0.1:3000 --token <admin token>
 *     [--model-url <OpenAI-style chat completions URL> --model-key <key> --model <name>]
 * Without --model-url the connection points at no model: questions get the node's apology.
 */
import { parseArgs } from 'node:util';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { demoAgentWith } from '../src/agent/index.js';
import { createDemoConnection, UNREACHABLE_MODEL_URL } from './demo-connection.js';

/** The parts of the operator API's answers this script reads. */
const createdApp = z.object({ streamId: z.string() });
const apiApp = z.object({ clientId: z.string(), clientSecret: z.string() });
const ivrChannel = z.object({ webhookUrl: z.string() });
const sandboxLine = z.object({ phoneNumber: z.string(), pin: z.string(), secret: z.string() });
const agentStatus = z.object({
  state: z.enum(['ready', 'training', 'failed']),
  error: z.string().optional(),
});

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    token: { type: 'string' },
    'model-url': { type: 'string', default: UNREACHABLE_MODEL_URL },
    'model-key': { type: 'string' },
    model: { type: 'string' },
  },
});
const base = values.base.replace(/\/+$/, '');
const adminToken = values.token ?? process.env.ADMIN_TOKEN;
if (!adminToken) {
  process.stderr.write(
    'usage: npm run demo:setup -- --base http://127.0.0.1:3000 --token <admin token printed by npm start>\n',
  );
  process.exit(2);
}

async function call<T>(
  schema: z.ZodType<T>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${adminToken}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  return schema.parse(parsed);
}

const app = await call(createdApp, 'POST', '/api/admin/apps', { name: "Luigi's", language: 'en' });
const importer = await call(apiApp, 'POST', `/api/admin/apps/${app.streamId}/api-apps`, {
  name: 'skill import',
  scopes: ['assist-import-export'],
});
const q = new URLSearchParams({ accountId: 'demo-account', orgId: 'demo-org', type: 'skillGroups' });
await fetch(`${base}/assist/api/v1/public/analytics/${app.streamId}/storeAssistFunctionalities?${q}`, {
  method: 'POST',
  headers: {
    auth: jwt.sign({ appId: importer.clientId }, importer.clientSecret, {
      algorithm: 'HS256',
      expiresIn: 300,
    }),
    accountId: 'demo-account',
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({
    data: [
      {
        _id: 'sg-reservations',
        name: 'Reservations',
        status: 'ACTIVE',
        isDefault: false,
        iId: app.streamId,
        createdByAId: 'demo',
        skills: [],
      },
    ],
    metaData: { userId: 'demo', orgId: 'demo-org', type: 'skillGroups', accountId: 'demo-account' },
  }),
}).then(async (r) => {
  if (r.status !== 200) throw new Error(`skill group import: ${r.status} ${await r.text()}`);
});
const connectionId = await createDemoConnection(base, adminToken, values['model-url'], {
  ...(values['model-key'] ? { apiKey: values['model-key'] } : {}),
  ...(values.model ? { model: values.model } : {}),
});
// the upload answers at once and its intent model trains in the background: wait until it is live
let agent = await call(
  agentStatus,
  'PUT',
  `/api/admin/apps/${app.streamId}/agent`,
  demoAgentWith(connectionId),
);
while (agent.state === 'training') {
  await new Promise((r) => setTimeout(r, 100));
  agent = await call(agentStatus, 'GET', `/api/admin/apps/${app.streamId}/agent/status`);
}
if (agent.state === 'failed') throw new Error(`the agent could not be trained: ${agent.error ?? ''}`);
await call(ivrChannel, 'PUT', `/api/admin/apps/${app.streamId}/channels/ivr`, { enabled: true });
const sandbox = await call(sandboxLine, 'PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, {
  enabled: true,
  maxConcurrentCalls: 2,
});
const minted = await call(
  z.object({ webhookUrl: z.string(), expiresAt: z.string() }),
  'POST',
  `/api/admin/apps/${app.streamId}/channels/ivr/tokens`,
  { sub: 'demo', expiresInS: 7 * 86_400 },
);

process.stdout.write(
  [
    `app        ${app.streamId}`,
    `webhook    ${minted.webhookUrl}`,
    `           (a token valid until ${minted.expiresAt}; npm run token -- ${app.streamId} mints another)`,
    `sandbox    ${sandbox.phoneNumber}  PIN ${sandbox.pin}  secret ${sandbox.secret}`,
    '',
    'Call it:',
    `  npm run call -- ${sandbox.phoneNumber} --base ${base} --pin ${sandbox.pin} --secret ${sandbox.secret} --script sandbox/scripts/book-a-table.txt`,
    '',
  ].join('\n'),
);
