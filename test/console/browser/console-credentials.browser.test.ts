/**
 * The console's secrets, which the service shows only when it makes them, in a real headless
 * Chromium against the real service: minting a webhook token (and calling with it), rotating the
 * IVR channel's client secret (the old token is refused), and the sandbox's PIN and secret: shown
 * when the sandbox is first switched on, never read back, and replaced on request (a call with the
 * old ones is refused, one with the new ones reaches the agent); and the app's API apps on its
 * overview: the console's own is one per app however many tabs and sessions call the public APIs,
 * and after the operator deletes it the console makes another. Every step also checks that the
 * page raised no CSP violation and no script error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import jwt from 'jsonwebtoken';
import { MemoryStore } from '../../../src/store/index.js';
import { runCall } from '../../../sandbox/index.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../../helpers/test-gateway.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  watchedPage,
  signIn,
} from './browser-kit.js';
import { FIXED_AGENT } from './console-fixtures.js';

const run = browserAvailable();

describe.skipIf(!run)('the console and the secrets the service shows once', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let app: IvrApp;
  let webhookUrl = '';
  let channelSecret = '';
  let mintedUrl = '';
  let sandbox = { number: '', pin: '', secret: '' };

  const appUrl = (tab = '') => `${gw.url}/console/apps/${app.streamId}${tab ? `/${tab}` : ''}`;
  /** The first request of a call to a webhook URL, as a VXML browser sends it. */
  const firstTurn = (url: string, callId: string) =>
    gw.submit(url, { callId, message: '', from: '+15550007777', to: app.streamId });
  const sandboxCall = (creds: { pin: string; secret: string }, from: string) =>
    runCall({
      startUrl: `${gw.url}/ivr/sandbox/${encodeURIComponent(sandbox.number)}`,
      startMethod: 'POST',
      startParams: { from },
      ...creds,
      mode: 'lenient',
      inputs: ['when are you open'],
      fetch: gw.docs.fetch(),
      plain: true,
    });

  /** Signs a page in with the admin token. */
  const signInTo = (p: Page) => signIn(p, gw.url, gw.config.adminToken);
  /** Opens the History page, which calls the public history API with the console's credential, and waits for its answer. */
  const openHistory = async (p: Page) => {
    await p.goto(appUrl('history'));
    await p.getByTestId('history-calls').or(p.getByText('No conversations match these filters.')).waitFor();
  };
  const consoleApiApps = async () =>
    (
      (await gw.admin('GET', `/api/admin/apps/${app.streamId}/api-apps`)).body.apiApps as Array<{
        clientId: string;
        name: string;
      }>
    ).filter((a) => a.name === 'Operator console');

  beforeAll(async () => {
    store = new MemoryStore('console-credentials:');
    gw = await startGateway({ store });
    // an app with the channel on, made through the operator API, which answers the secret this once
    app = await setupIvrApp(gw, { agent: FIXED_AGENT, name: 'Front desk' });
    channelSecret = app.clientSecret;
    webhookUrl = `${gw.url}/ivr/hooks/${app.streamId}`;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.url });
    ({ page, problems } = await watchedPage(context));
    await signInTo(page);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when the overview of an app whose channel exists is opened, then the secret is not shown and the snippet asks for a token', async () => {
    await page.goto(appUrl());
    await page.getByTestId('webhook-url').waitFor();
    expect(await page.getByTestId('client-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(channelSecret);
    expect(await page.getByTestId('snippet').innerText()).toContain(
      `<subdialog name="bot" src="${webhookUrl}?token=YOUR_TOKEN">`,
    );
    expect(await page.getByText('A token without exp is refused.').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('when a token is minted, then the webhook URL carrying it and its expiry are shown, the snippet carries it and the webhook answers a call with it', async () => {
    await page.getByLabel('Valid for').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Mint a token' }).click();
    const minted = await page.getByTestId('minted-webhook-url').innerText();
    expect(minted.startsWith(`${webhookUrl}?token=`)).toBe(true);
    const token = new URL(minted).searchParams.get('token') ?? '';
    // signed with the channel's secret, for this channel, for an hour
    const claims = jwt.verify(token, channelSecret, { algorithms: ['HS256'] }) as {
      appId: string;
      exp: number;
      iat: number;
    };
    expect(claims.appId).toBe(app.clientId);
    expect(claims.exp - claims.iat).toBe(3600);
    const expires = await page.getByTestId('token-expires').getAttribute('datetime');
    expect(Math.abs(Date.parse(expires ?? '') - claims.exp * 1000)).toBeLessThan(2000);
    await page.getByRole('button', { name: 'Copy the URL with the token' }).click();
    expect(String(await page.evaluate('navigator.clipboard.readText()'))).toBe(minted);
    expect(await page.getByTestId('snippet').innerText()).toContain(`<subdialog name="bot" src="${minted}">`);
    expect(await page.getByText('The snippet carries the token minted above.').count()).toBe(1);
    await screenshot(page, 'overview-token-desktop');
    const call = await firstTurn(minted, 'console-minted-1');
    expect(call.status).toBe(200);
    expect(call.xml).toContain('Welcome to the front desk');
    mintedUrl = minted;
    expect(problems).toEqual([]);
  });

  it('when the client secret is rotated, then the confirmation says old tokens will be refused, the new secret is shown once and the token minted before is refused', async () => {
    await page.getByRole('button', { name: 'Rotate client secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the client secret of “Front desk”?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      'Calls using tokens signed with the old secret will be refused',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await firstTurn(mintedUrl, 'console-minted-2')).status).toBe(200);
    await page.getByRole('button', { name: 'Rotate client secret' }).click();
    await dialog.getByRole('button', { name: 'Rotate the secret' }).click();
    const secret = await page.getByTestId('client-secret').innerText();
    expect(secret.length).toBeGreaterThan(20);
    expect(secret).not.toBe(channelSecret);
    expect(await page.getByText('Tokens signed with the old secret are refused from now on.').count()).toBe(
      1,
    );
    // the token minted with the old secret is gone from the page and from the snippet, and refused
    expect(await page.getByTestId('minted-webhook-url').count()).toBe(0);
    expect(await page.getByTestId('snippet').innerText()).toContain('?token=YOUR_TOKEN');
    await screenshot(page, 'overview-rotated-desktop');
    const refused = await firstTurn(mintedUrl, 'console-minted-3');
    expect(refused.status).toBe(401);
    expect(refused.xml).not.toContain('Welcome to the front desk');
    await page.getByRole('button', { name: 'I have stored it, hide it' }).click();
    expect(await page.getByTestId('client-secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Mint a token' }).click();
    const fresh =
      new URL(await page.getByTestId('minted-webhook-url').innerText()).searchParams.get('token') ?? '';
    expect(() => jwt.verify(fresh, secret, { algorithms: ['HS256'] })).not.toThrow();
    expect(() => jwt.verify(fresh, channelSecret, { algorithms: ['HS256'] })).toThrow(/invalid signature/);
    expect(problems).toEqual([]);
  });

  it('when the sandbox is switched on, then its PIN and secret are shown at once, and afterwards the page says it cannot show them again', async () => {
    await page.goto(appUrl('sandbox'));
    await page.getByRole('switch', { name: 'Switch the sandbox on' }).click();
    const number = await page.getByTestId('sandbox-number').innerText();
    // the number is a key; what a VoiceXML browser calls is the entry URL beside it
    expect(await page.getByTestId('sandbox-entry-url').innerText()).toBe(
      `${new URL(page.url()).origin}/ivr/sandbox/${number}`,
    );
    expect(await page.getByRole('button', { name: 'Copy entry URL' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Show PIN' }).click();
    await page.getByRole('button', { name: 'Show secret' }).click();
    sandbox = {
      number,
      pin: await page.getByTestId('sandbox-pin').innerText(),
      secret: await page.getByTestId('sandbox-secret').innerText(),
    };
    expect(sandbox.pin).toMatch(/^\d{6}$/);
    expect(sandbox.secret).toMatch(/^\d{8}$/);
    await page.getByRole('button', { name: 'I have noted them, hide them' }).click();
    expect(await page.getByTestId('sandbox-pin').count()).toBe(0);
    // opened again, the page offers no reveal it cannot keep: it says so and offers new ones
    await page.goto(appUrl('sandbox'));
    await page.getByTestId('sandbox-number').waitFor();
    expect(await page.getByTestId('sandbox-credentials-note').innerText()).toContain(
      'cannot show them again',
    );
    expect(await page.getByTestId('sandbox-pin').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Show( the)? PIN/ }).count()).toBe(0);
    expect(await page.content()).not.toContain(`<code data-testid="sandbox-secret">`);
    expect(problems).toEqual([]);
  });

  it('when a new PIN and secret are made, then the confirmation says the old ones stop working, a call with the old ones is refused and one with the new ones reaches the agent', async () => {
    await page.getByRole('button', { name: 'Make a new PIN and secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make a new PIN and secret for “Front desk”?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('The current PIN and secret stop working at once');
    await dialog.getByRole('button', { name: 'Make new ones' }).click();
    await page.getByRole('button', { name: 'Show PIN' }).click();
    await page.getByRole('button', { name: 'Show secret' }).click();
    const fresh = {
      pin: await page.getByTestId('sandbox-pin').innerText(),
      secret: await page.getByTestId('sandbox-secret').innerText(),
    };
    expect(fresh.pin).toMatch(/^\d{6}$/);
    expect(fresh.secret).toMatch(/^\d{8}$/);
    expect(`${fresh.pin}${fresh.secret}`).not.toBe(`${sandbox.pin}${sandbox.secret}`);
    expect(await page.getByText('The old ones no longer log in.').count()).toBe(1);
    await screenshot(page, 'sandbox-rotated-desktop');
    const old = (await sandboxCall(sandbox, '+15550009999')).spoken.join(' ');
    expect(old).toContain('That PIN or secret did not match.');
    expect(old).not.toContain('We are open from nine to five');
    const now = (await sandboxCall(fresh, '+15550004444')).spoken.join(' ');
    expect(now).toContain('We are open from nine to five.');
    await gw.docs.validateAll();
    expect(problems).toEqual([]);
  });

  it('when the public APIs are called from two tabs and a second session, then the overview lists one API app of the console beside the others, with its scopes', async () => {
    await openHistory(page);
    const second = await watchedPage(context);
    await openHistory(second.page);
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone });
    const other = await watchedPage(phone);
    await signInTo(other.page);
    await openHistory(other.page);
    const own = await consoleApiApps();
    expect(own).toHaveLength(1);
    // nothing of it is kept in the browser: the tabs ask the service for short-lived tokens
    expect(
      await page.evaluate('JSON.stringify(sessionStorage) + JSON.stringify(localStorage)'),
    ).not.toContain(own[0]!.clientId);

    await page.goto(appUrl());
    const table = page.getByTestId('api-apps');
    const row = table.getByRole('row', { name: /Operator console/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([
      'Operator console (this console)',
      own[0]!.clientId,
      'chat-history, batch-tests, assist-import-export, tables',
      expect.any(String),
      'Delete',
    ]);
    // the API app the test made for its skill-group import is listed too
    await table.getByRole('row', { name: /assist import/ }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
    await screenshot(page, 'overview-api-apps-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await other.page.goto(appUrl());
    await other.page
      .getByTestId('api-apps')
      .getByRole('row', { name: /Operator console/ })
      .waitFor();
    await screenshot(other.page, 'overview-api-apps-phone');
    expect(await seriousViolations(other.page)).toEqual([]);
    await phone.close();
    await second.page.close();
    expect([...problems, ...second.problems, ...other.problems]).toEqual([]);
  });

  it("when the operator deletes the console's API app, then it is no longer listed, and the next call of a public API makes a new one", async () => {
    const [before] = await consoleApiApps();
    const table = page.getByTestId('api-apps');
    await table
      .getByRole('button', { name: `Delete the API app Operator console (${before!.clientId})` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete the API app “Operator console”?' });
    expect(await dialog.innerText()).toContain(
      'it makes a new one the next time a page calls the public APIs',
    );
    await dialog.getByRole('button', { name: 'Delete Operator console' }).click();
    await table.getByText(`Deleted the API app Operator console (${before!.clientId}).`).waitFor();
    await table.getByRole('row', { name: /Operator console/ }).waitFor({ state: 'detached' });
    expect(await consoleApiApps()).toEqual([]);

    await openHistory(page);
    const after = await consoleApiApps();
    expect(after).toHaveLength(1);
    expect(after[0]!.clientId).not.toBe(before!.clientId);
    await page.goto(appUrl());
    await page
      .getByTestId('api-apps')
      .getByRole('row', { name: new RegExp(after[0]!.clientId) })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it("when the operator deletes an API key on the Connections page, then it is refused at once, and the console's own is made again on its next call", async () => {
    const other = (
      await gw.admin('POST', '/api/admin/api-keys', { name: 'Integrator', scopes: ['connections:view'] })
    ).body;
    await page.goto(`${gw.url}/console/connections`);
    const keys = page.getByTestId('api-keys');
    await keys.getByRole('row', { name: /Integrator/ }).waitFor();
    // the page's own call of the connections API made the console's key, listed beside the others
    await page.getByRole('heading', { name: 'Model connections', level: 1 }).waitFor();
    await page.reload();
    await keys.getByRole('row', { name: /Operator console/ }).waitFor();
    expect(await keys.innerText()).not.toContain(other.apiKey);

    await keys.getByRole('button', { name: 'Delete the API key Integrator' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the API key “Integrator”?' });
    expect(await dialog.innerText()).toContain('whoever uses it loses access');
    await dialog.getByRole('button', { name: 'Delete Integrator' }).click();
    await keys.getByText('Deleted the API key Integrator.').waitFor();
    expect(
      (await fetch(`${gw.url}/api/public/connections`, { headers: { 'x-api-key': other.apiKey } })).status,
    ).toBe(401);

    const ownBefore = (await gw.admin('GET', '/api/admin/api-keys')).body.apiKeys.filter(
      (k: { name: string }) => k.name === 'Operator console',
    );
    expect(ownBefore).toHaveLength(1);
    await keys.getByRole('button', { name: 'Delete the API key Operator console' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the API key “Operator console”?' })
      .getByRole('button', { name: 'Delete Operator console' })
      .click();
    await keys.getByText('Deleted the API key Operator console.').waitFor();
    // the page's next call of the connections API is refused once, then goes through with a new key
    await page.goto(`${gw.url}/console/connections`);
    await page.getByRole('heading', { name: 'Model connections', level: 1 }).waitFor();
    await page
      .getByRole('table', { name: 'Model connections' })
      .or(page.getByText('No model connections yet.'))
      .waitFor();
    const ownAfter = (await gw.admin('GET', '/api/admin/api-keys')).body.apiKeys.filter(
      (k: { name: string }) => k.name === 'Operator console',
    );
    expect(ownAfter).toHaveLength(1);
    expect(ownAfter[0].id).not.toBe(ownBefore[0].id);
    // the one refused call before the new key is a 401 the page expects and recovers from
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  });
});
