/**
 * Mints a webhook token for an app's IVR channel through the operator API and prints the webhook
 * URL that carries it, ready for a VXML platform's <subdialog src>.
 *   npm run token -- <streamId> [--base http://127.0.0.1:3000] [--token <admin token>] [--sub <caller id>] [--expires-in <seconds>]
 */
import { parseArgs } from 'node:util';

const USAGE =
  'usage: npm run token -- <streamId> [--base http://127.0.0.1:3000] [--token <admin token>] [--sub ivr] [--expires-in 86400]';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    token: { type: 'string' },
    sub: { type: 'string' },
    'expires-in': { type: 'string' },
  },
});
const adminToken = values.token ?? process.env.ADMIN_TOKEN;
const streamId = positionals[0];
if (!adminToken || !streamId || positionals.length > 1) {
  process.stderr.write(`${USAGE}\n(the admin token comes from --token or ADMIN_TOKEN)\n`);
  process.exit(2);
}
const expiresInS = values['expires-in'] === undefined ? undefined : Number(values['expires-in']);
if (expiresInS !== undefined && !Number.isInteger(expiresInS)) {
  process.stderr.write(`--expires-in must be a whole number of seconds\n${USAGE}\n`);
  process.exit(2);
}

const res = await fetch(
  `${values.base.replace(/\/+$/, '')}/api/admin/apps/${encodeURIComponent(streamId)}/channels/ivr/tokens`,
  {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      ...(values.sub ? { sub: values.sub } : {}),
      ...(expiresInS !== undefined ? { expiresInS } : {}),
    }),
  },
);
const body = (await res.json().catch(() => ({}))) as {
  webhookUrl?: string;
  expiresAt?: string;
  errors?: Array<{ msg: string; path?: string }>;
};
if (res.status !== 201 || !body.webhookUrl) {
  const why =
    body.errors?.map((e) => `${e.path ? `${e.path}: ` : ''}${e.msg}`).join('; ') ?? `HTTP ${res.status}`;
  process.stderr.write(`token not minted: ${why}\n`);
  process.exit(1);
}
process.stdout.write(`webhook URL (expires ${body.expiresAt}):\n${body.webhookUrl}\n`);
