/**
 * Webhook tokens: minted by the operator API and `npm run token` with an expiry, refused without
 * one unless the channel allows it, and the URL `npm run demo:setup` prints answers a call.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import type { Store } from '../../src/store/index.js';

const projectRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** Runs a script as `npm run <script>` does, with tsx, in one Node process (no npx or tsx launcher processes). */
function run(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The first request of a call to a webhook URL, as a VXML browser sends it. */
async function firstTurn(url: string, callId: string): Promise<{ status: number; xml: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ callId, message: '' }).toString(),
  });
  return { status: res.status, xml: await res.text() };
}

describeEachStore('webhook tokens', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when the operator mints a token, then it expires when it says and its webhook URL answers a call', async () => {
    const minted = await gw.admin('POST', `/api/admin/apps/${app.streamId}/channels/ivr/tokens`, {
      sub: '+15550001234',
      expiresInS: 3600,
    });
    expect(minted.status).toBe(201);
    const claims = jwt.decode(minted.body.token as string) as { exp: number; sub: string; appId: string };
    expect(claims).toMatchObject({ sub: '+15550001234', appId: app.clientId });
    expect(Math.abs(claims.exp * 1000 - Date.parse(minted.body.expiresAt as string))).toBeLessThan(2000);
    const call = await firstTurn(minted.body.webhookUrl as string, `minted-${factory.name}`);
    expect(call.status).toBe(200);
    expect(call.xml).toContain('<vxml');
  });

  it('when a token has no expiry, then the webhook refuses it saying why, unless the channel allows such tokens', async () => {
    const forever = jwt.sign({ appId: app.clientId, sub: 'legacy' }, app.clientSecret, {
      algorithm: 'HS256',
    });
    const url = `${gw.url}/ivr/hooks/${app.streamId}?token=${encodeURIComponent(forever)}`;
    const refused = await firstTurn(url, `forever-${factory.name}`);
    expect(refused.status).toBe(401);
    expect(gw.log.text()).toMatch(/no expiry/);
    const allowed = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/channels/ivr`, {
      enabled: true,
      allowTokensWithoutExpiry: true,
    });
    expect(allowed.body).toMatchObject({ enabled: true, allowTokensWithoutExpiry: true });
    expect(allowed.body.clientSecret).toBeUndefined();
    expect((await firstTurn(url, `forever-ok-${factory.name}`)).status).toBe(200);
    await gw.admin('PUT', `/api/admin/apps/${app.streamId}/channels/ivr`, {
      enabled: true,
      allowTokensWithoutExpiry: false,
    });
    expect((await firstTurn(url, `forever-again-${factory.name}`)).status).toBe(401);
  });

  it('when a token is asked for an app without a channel, or for too long, then 404 and 400', async () => {
    const bare = await gw.admin('POST', '/api/admin/apps', { name: 'No channel' });
    expect(
      (await gw.admin('POST', `/api/admin/apps/${bare.body.streamId}/channels/ivr/tokens`, {})).status,
    ).toBe(404);
    const long = await gw.admin('POST', `/api/admin/apps/${app.streamId}/channels/ivr/tokens`, {
      expiresInS: 10 * 365 * 86_400,
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe('body.expiresInS');
  });
});

describeEachStore('the token and demo scripts', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when npm run token mints for an app, then the URL it prints answers a call; without a token it says how to use it', async () => {
    const app = await setupIvrApp(gw, { name: 'Scripted' });
    const r = await run('sandbox/mint-token.ts', [app.streamId, '--base', gw.url, '--sub', 'platform-1'], {
      ADMIN_TOKEN: gw.config.adminToken,
    });
    expect(r.code, r.stderr).toBe(0);
    const url = /^(http\S+)$/m.exec(r.stdout)?.[1];
    expect(url).toBeDefined();
    expect((await firstTurn(url!, `script-${factory.name}`)).status).toBe(200);
    const usage = await run('sandbox/mint-token.ts', []);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage: npm run token/);
  }, 60_000);

  it('when npm run demo:setup runs, then the webhook URL it prints answers a call', async () => {
    const r = await run('sandbox/setup-demo.ts', ['--base', gw.url, '--token', gw.config.adminToken]);
    expect(r.code, r.stderr).toBe(0);
    const url = /^webhook\s+(\S+)$/m.exec(r.stdout)?.[1];
    expect(url).toMatch(/\?token=/);
    const call = await firstTurn(url!, `demo-${factory.name}`);
    expect(call.status).toBe(200);
    expect(call.xml).toContain("Welcome to Luigi's");
  }, 60_000);
});
