/**
 * The built console bundle and the pages the service serves hold no secret: not the admin token,
 * the master key, a channel's client secret, an API app's secret or a sandbox PIN, whatever the
 * service was asked to create; the page's style nonce is fresh on every load; the first page
 * (its HTML and what it loads before any route's own chunk) is at most 300 KB gzipped. A bundle
 * built while the build's environment holds the service's secrets (as a careless CI job might) holds
 * none of them either. Needs no browser.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { MemoryStore } from '../../../src/store/index.js';
import { startGateway, type RunningGateway } from '../../helpers/test-gateway.js';

const DIST = join(process.cwd(), 'dist', 'console-client');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the console bundle and pages hold no secret', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  const secrets: string[] = [];

  beforeAll(async () => {
    store = new MemoryStore('console-bundle:');
    gw = await startGateway({ store });
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'Secrets' });
    const channel = await gw.admin('PUT', `/api/admin/apps/${app.body.streamId}/channels/ivr`, {
      enabled: true,
    });
    const apiApp = await gw.admin('POST', `/api/admin/apps/${app.body.streamId}/api-apps`, {
      name: 'x',
      scopes: ['chat-history'],
    });
    const key = await gw.admin('POST', '/api/admin/api-keys', { name: 'x', scopes: ['connections:view'] });
    const sandbox = await gw.admin('PUT', `/api/admin/apps/${app.body.streamId}/ivr-sandbox`, {
      enabled: true,
    });
    secrets.push(
      gw.config.adminToken,
      gw.config.masterKey.toString('base64'),
      channel.body.clientSecret,
      apiApp.body.clientSecret,
      key.body.apiKey,
      `${sandbox.body.pin}${sandbox.body.secret}`,
    );
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 8)).toBe(true);
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when every built file is read, then none holds a secret, an environment read or a private key', () => {
    const files = filesUnder(DIST);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${file} holds a secret`).toBe(false);
      expect(text, file).not.toMatch(
        /process\.env|import\.meta\.env\.(?!MODE|DEV|PROD|SSR|BASE_URL)|ADMIN_TOKEN=|MASTER_KEY=|-----BEGIN/,
      );
    }
  });

  it(
    'when the console is built while the environment holds secrets, then the bundle holds none of them',
    { timeout: 180_000 },
    async () => {
      const planted = {
        ADMIN_TOKEN: `planted-admin-${Date.now().toString(36)}-token`,
        MASTER_KEY: `planted-master-${Date.now().toString(36)}-key`,
        // Vite hands VITE_* variables to code that reads import.meta.env: none may reach the bundle
        VITE_ADMIN_TOKEN: `planted-vite-${Date.now().toString(36)}-token`,
        VITE_API_KEY: `planted-vite-${Date.now().toString(36)}-key`,
      };
      const before = Object.fromEntries(Object.keys(planted).map((k) => [k, process.env[k]]));
      const outDir = mkdtempSync(join(tmpdir(), 'console-bundle-'));
      Object.assign(process.env, planted);
      try {
        await build({
          configFile: join(process.cwd(), 'console', 'vite.config.ts'),
          logLevel: 'silent',
          build: { outDir, emptyOutDir: true },
        });
        const files = filesUnder(outDir);
        expect(files.some((f) => f.endsWith('.js'))).toBe(true);
        for (const file of files) {
          const text = readFileSync(file, 'utf8');
          for (const [name, value] of Object.entries(planted))
            expect(text.includes(value), `${file} holds ${name}`).toBe(false);
        }
      } finally {
        for (const [k, v] of Object.entries(before)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
        rmSync(outDir, { recursive: true, force: true });
      }
    },
  );

  it('when the pages and their assets are fetched from the service, then none holds a secret and each page has its own style nonce', async () => {
    const pages = await Promise.all(
      ['/console/', '/console/apps', '/console/connections'].map(async (p) => {
        const res = await fetch(`${gw.url}${p}`);
        return { html: await res.text(), csp: res.headers.get('content-security-policy') ?? '' };
      }),
    );
    const nonces = pages.map((p) => /'nonce-([^']+)'/.exec(p.csp)?.[1] ?? '');
    expect(new Set(nonces).size).toBe(pages.length);
    for (const [i, page] of pages.entries()) {
      expect(page.html).toContain(`nonce="${nonces[i]}"`);
      expect(page.html).not.toContain('CONSOLE_CSP_NONCE');
      expect(page.html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      for (const secret of secrets) expect(page.html.includes(secret)).toBe(false);
    }
    const assets = [...pages[0]!.html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await fetch(`${gw.url}${asset}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const text = await res.text();
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    }
    expect((await fetch(`${gw.url}/console/assets/missing.js`)).status).toBe(404);
  });

  it('when the first page loads, then what it fetches before any page chunk is at most 300 KB gzipped', async () => {
    const html = await (await fetch(`${gw.url}/console/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    let total = gzipSync(html).length;
    for (const asset of assets)
      total += gzipSync(Buffer.from(await (await fetch(`${gw.url}${asset}`)).arrayBuffer())).length;
    expect(total).toBeLessThanOrEqual(300 * 1024);
  });
});
