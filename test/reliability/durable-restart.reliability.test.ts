/**
 * The default store keeps what operators make (issue 40): the service runs as a process on the
 * embedded store of a data directory (no REDIS_URL, no ADMIN_TOKEN, no MASTER_KEY), is killed with
 * SIGKILL under 20 concurrent calls and started again on the same directory. Everything made through
 * the API is back: the app, its agent, IVR settings and channel; the sandbox's number, PIN and
 * secret (a login with them works); an API app's sealed secret (its tokens still sign in); a table
 * and its row (its unique value is refused again); the test suite and a completed test run (the
 * same result); the admin token (not printed again, shown by `npm run data -- admin-token`) and a
 * console session cookie made before the crash. Every call in progress completes with its history
 * exact (each acknowledged message once). Then the configuration is exported from the embedded store,
 * imported into Redis, and the same call on both gives the same documents.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAgentDefinition } from '../../src/agent/index.js';
import { SCHEMA_VERSION } from '../../src/store/index.js';
import { signHs256 } from '../../src/platform/index.js';
import { startModelStub, type ModelStub } from './model-stub.js';
import { RoundRobinClient, runScriptedCall, type CallTrace } from './scripted-browser.js';
import {
  createModelConnection,
  deleteKeys,
  provisionIvrApp,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from './gateway-processes.js';
import { BOOKING, expectBooked, expectBookingHistories } from './booking-call.js';

const CALLS = 20;
const ROOT = join(import.meta.dirname, '../..');

/** A client of one instance that, when the instance is gone, waits for its replacement and sends again. */
class RestartingClient extends RoundRobinClient {
  base: string;
  restarted: Promise<void> = Promise.resolve();
  constructor(base: string) {
    super([base]);
    this.base = base;
  }
  override async post(path: string, params: Record<string, string>) {
    for (;;) {
      const base = this.base;
      try {
        return await super.post(path, params, base);
      } catch (err) {
        await this.restarted;
        if (this.base === base) throw err;
      }
    }
  }
}

const adminTokenIn = (output: string): string | undefined =>
  /admin token \(shown this once[^)]*\): (\S+)/.exec(output)?.[1];

async function admin(base: string, token: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/api/admin${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

async function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';
const TABLE = 'durable_rows';
const ROW_PHONE = '+15550009999';

/** What else an operator makes (beyond the app, its agent, settings and channel), made before the crash. */
interface Made {
  line: { phoneNumber: string; pin: string; secret: string };
  suite: unknown;
  client: { clientId: string; clientSecret: string };
  run: { id: string; result: Record<string, unknown> };
  cookie: string;
}

async function makeTheRest(base: string, adminToken: string, streamId: string): Promise<Made> {
  const auth = { Authorization: `Bearer ${adminToken}` };
  const sandbox = await send(base, 'PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, auth, {
    enabled: true,
    maxConcurrentCalls: 5,
  });
  expect(sandbox.status, JSON.stringify(sandbox.body)).toBe(200);
  expect(sandbox.body.pin).toMatch(/^\d{6}$/);
  const suite = await send(base, 'PUT', `/api/admin/apps/${streamId}/testsuites/smoke`, auth, {
    utterances: [
      { utterance: 'book a table', intent: 'BookTable' },
      { utterance: 'hello there', intent: 'None' },
    ],
  });
  expect(suite.status, JSON.stringify(suite.body)).toBe(200);
  const suiteRead = await send(base, 'GET', `/api/admin/apps/${streamId}/testsuites/smoke`, auth);
  expect(suiteRead.body.utterances).toHaveLength(2);
  // an API app: its client secret is kept sealed
  const client = await send(base, 'POST', `/api/admin/apps/${streamId}/api-apps`, auth, {
    name: 'durable',
    scopes: ['tables', 'batch-tests'],
  });
  expect(client.status).toBe(201);
  const table = await send(base, 'PUT', `/api/admin/tables/${TABLE}`, auth, {
    columns: [
      { name: 'phone', type: 'string', required: true, unique: true, maxLength: 32 },
      { name: 'note', type: 'string', maxLength: 100 },
    ],
    access: { [streamId]: { read: true, write: true } },
  });
  expect(table.status, JSON.stringify(table.body)).toBe(200);
  const jwt = signHs256({ appId: client.body.clientId, sub: 'u-durable' }, client.body.clientSecret);
  const row = await send(
    base,
    'POST',
    `/api/public/tables/${TABLE}`,
    { auth: jwt },
    { data: { phone: ROW_PHONE, note: 'before the crash' } },
  );
  expect(row.status, JSON.stringify(row.body)).toBeLessThan(300);
  const started = await send(
    base,
    'POST',
    `/api/public/bot/${streamId}/testsuite/smoke/run`,
    { auth: jwt, 'bot-language': 'en' },
    { runType: 'published' },
  );
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  let status: any;
  for (let i = 0; i < 600; i++) {
    status = (
      await send(base, 'GET', `/api/public/stream/${streamId}/testsuite/smoke/${started.body._id}/status`, {
        auth: jwt,
        'bot-language': 'en',
      })
    ).body;
    if (status?.status === 'completed' || status?.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status.status).toBe('completed');
  // a console session: the cookie an open console tab holds
  const signIn = await send(base, 'POST', '/api/console/session', { Origin: base }, { token: adminToken });
  expect(signIn.status).toBe(201);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(cookie).toMatch(/=/);
  return {
    line: sandbox.body,
    suite: suiteRead.body,
    client: client.body,
    run: { id: started.body._id, result: status.result },
    cookie,
  };
}

/** Checks, on the restarted service, everything makeTheRest made. */
async function expectTheRest(base: string, adminToken: string, streamId: string, made: Made): Promise<void> {
  const auth = { Authorization: `Bearer ${adminToken}` };
  // the console tab signed in before the crash is still signed in
  expect((await send(base, 'GET', '/api/console/session', { Cookie: made.cookie })).status).toBe(200);
  expect(
    (await send(base, 'GET', '/api/console/session', { Cookie: 'ivr_console=not-a-session' })).status,
  ).toBe(401);
  // the sandbox: the same number, and the PIN and secret made before still log in
  const again = await send(base, 'PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, auth, {
    enabled: true,
    maxConcurrentCalls: 5,
  });
  expect(again.body.phoneNumber).toBe(made.line.phoneNumber);
  expect(again.body.pin).toBeUndefined();
  const number = encodeURIComponent(made.line.phoneNumber);
  const post = async (path: string, params: Record<string, string>) =>
    (
      await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      })
    ).text();
  const entered = await post(`/ivr/sandbox/${number}`, {
    from: '+15550002222',
    callId: 'call-durable-sandbox',
  });
  expect(entered).toContain('key in your PIN');
  const wrong = await post(
    `/ivr/sandbox/${number}?step=login&callId=call-durable-sandbox&from=%2B15550002222`,
    { attempt: attemptOf(entered), pin: '000000', secret: '00000000' },
  );
  expect(wrong).toContain('did not match');
  const loggedIn = await post(
    `/ivr/sandbox/${number}?step=login&callId=call-durable-sandbox&from=%2B15550002222`,
    { attempt: attemptOf(wrong), pin: made.line.pin, secret: made.line.secret },
  );
  expect(loggedIn).toContain('<subdialog');
  // the suite, and the run made before the crash, with the same result
  const suite = await send(base, 'GET', `/api/admin/apps/${streamId}/testsuites/smoke`, auth);
  expect(suite.status).toBe(200);
  expect(suite.body).toEqual(made.suite);
  // the API app's sealed secret still signs in; the table's row is there (its unique phone is refused again)
  const jwt = signHs256({ appId: made.client.clientId, sub: 'u-durable' }, made.client.clientSecret);
  const run = await send(
    base,
    'GET',
    `/api/public/stream/${streamId}/testsuite/smoke/${made.run.id}/status`,
    { auth: jwt, 'bot-language': 'en' },
  );
  expect(run.status).toBe(200);
  const { fileUrl: _was, ...resultBefore } = made.run.result;
  const { fileUrl: _is, ...resultAfter } = run.body.result;
  expect(resultAfter).toEqual(resultBefore);
  const duplicate = await send(
    base,
    'POST',
    `/api/public/tables/${TABLE}`,
    { auth: jwt },
    { data: { phone: ROW_PHONE, note: 'after the crash' } },
  );
  expect(duplicate.status, JSON.stringify(duplicate.body)).toBe(409);
  const fresh = await send(
    base,
    'POST',
    `/api/public/tables/${TABLE}`,
    { auth: jwt },
    { data: { phone: '+15550008888', note: 'after the crash' } },
  );
  expect(fresh.status, JSON.stringify(fresh.body)).toBeLessThan(300);
}

describe('the embedded store across a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ivr-durable-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    TURN_DEADLINE_MS: '1500',
    ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
    KEY_PREFIX: 'ivr:',
  };
  let gw: GatewayProcess;
  let stub: ModelStub;
  let app: ProvisionedApp;
  let adminToken: string;
  const redisPrefix = `durable-${randomUUID().slice(0, 8)}:`;
  const extra: GatewayProcess[] = [];

  beforeAll(async () => {
    stub = await startModelStub();
    gw = await startGatewayProcess('embedded', env);
    adminToken = adminTokenIn(gw.proc.output())!;
    expect(adminToken, gw.proc.output()).toBeTruthy();
    const connectionId = await createModelConnection(gw.url, adminToken, stub.url);
    const agent = structuredClone(demoAgentDefinition) as any;
    agent.dialogs.ask.nodes.answer.connectionId = connectionId;
    app = await provisionIvrApp(gw.url, adminToken, { agent });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gw, ...extra].map((g) => g?.proc.stop('SIGTERM')));
    await stub?.close();
    if (inject('redisAvailable')) await deleteKeys(inject('redisUrl'), redisPrefix);
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('when the service is killed with SIGKILL under 20 calls and started again, then everything is back and every call completes with its history once', async () => {
    const made = await makeTheRest(gw.url, adminToken, app.streamId);
    const before = {
      app: await admin(gw.url, adminToken, `/apps/${app.streamId}`),
      settings: await admin(gw.url, adminToken, `/apps/${app.streamId}/ivr-settings`),
      channel: await admin(gw.url, adminToken, `/apps/${app.streamId}/channels/ivr`),
      agent: await admin(gw.url, adminToken, `/apps/${app.streamId}/agent`),
    };
    expect(before.app.status).toBe(200);
    const client = new RestartingClient(gw.url);
    const killAfter = Math.floor(CALLS * (BOOKING.length + 1) * 0.45);
    let docs = 0;
    let restarting: Promise<void> | undefined;
    const first = gw;
    const traces: CallTrace[] = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        runScriptedCall({
          client,
          startPath: app.webhookPath,
          callId: `call-durable-${i}`,
          say: BOOKING,
          onDocument: () => {
            if (++docs !== killAfter) return;
            first.proc.signal('SIGKILL');
            restarting = (async () => {
              await first.proc.exited;
              gw = await startGatewayProcess('embedded-again', env);
              client.base = gw.url;
            })();
            client.restarted = restarting;
          },
        }),
      ),
    );
    await restarting;
    expect(await first.proc.exited).toBe(137);
    expect(client.networkRetries).toBeGreaterThan(0);
    traces.forEach(expectBooked);
    await expectBookingHistories(
      gw.url,
      app,
      traces.map((t) => t.callId),
    );
    // the token made on first start still signs in, and is not printed again
    expect(gw.proc.output()).not.toContain(adminToken);
    for (const [what, path] of [
      ['app', `/apps/${app.streamId}`],
      ['settings', `/apps/${app.streamId}/ivr-settings`],
      ['channel', `/apps/${app.streamId}/channels/ivr`],
      ['agent', `/apps/${app.streamId}/agent`],
    ] as const) {
      const after = await admin(gw.url, adminToken, path);
      expect(after.status, what).toBe(200);
      // the same, but for the address the new process listens on (a port of its own)
      expect(after.body, what).toEqual(
        JSON.parse(JSON.stringify(before[what].body).replaceAll(first.url, gw.url)),
      );
    }
    await expectTheRest(gw.url, adminToken, app.streamId, made);
    // the command shows the kept token
    const shown = execFileSync(process.execPath, ['--import', 'tsx', 'src/data-cli.ts', 'admin-token'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    })
      .toString()
      .trim();
    expect(shown).toBe(adminToken);
  }, 180_000);

  it.skipIf(!inject('redisAvailable'))(
    'when the configuration is exported and imported into Redis, then the same call gives the same documents',
    async () => {
      const file = join(dataDir, 'export.json');
      const cli = (args: string[], extraEnv: Record<string, string>) =>
        execFileSync(process.execPath, ['--import', 'tsx', 'src/data-cli.ts', ...args], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, ...extraEnv },
        }).toString();
      expect(cli(['export', file], { DATA_DIR: dataDir })).toMatch(/exported \d+ keys/);
      const exported = JSON.parse(readFileSync(file, 'utf8'));
      expect(exported.version).toBe(1);
      expect(exported.entries.some((e: { key: string }) => e.key.includes(':msg:'))).toBe(false);
      const masterKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
      const redisEnv = { REDIS_URL: inject('redisUrl'), KEY_PREFIX: redisPrefix, MASTER_KEY: masterKey };
      expect(cli(['import', file], redisEnv)).toMatch(/imported \d+ keys/);
      const onRedis = await startGatewayProcess('redis', {
        ...redisEnv,
        ADMIN_TOKEN: adminToken,
        LOG_LEVEL: 'warn',
        ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
      });
      extra.push(onRedis);
      const play = (base: string) =>
        runScriptedCall({
          client: new RoundRobinClient([base]),
          startPath: app.webhookPath,
          callId: `call-moved-${randomUUID().slice(0, 6)}`,
          say: BOOKING,
        });
      const [a, b] = [await play(gw.url), await play(onRedis.url)];
      // a "one moment" document is pacing (a turn past its deadline on a loaded machine), not content
      const shape = (t: CallTrace) =>
        t.docs
          .filter((d) => d.kind !== 'wait')
          .map((d) => ({ kind: d.kind, turn: d.turn, status: d.status, spoken: d.spoken }));
      expectBooked(a);
      expect(shape(b)).toEqual(shape(a));
    },
    120_000,
  );

  it('when the data directory is newer than the service, then the service refuses to start and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivr-newer-'));
    const db = new Database(join(dir, 'gateway.sqlite'));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(startGatewayProcess('older', { DATA_DIR: dir, LOG_LEVEL: 'warn' })).rejects.toThrow(
      /newer than this service/,
    );
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
