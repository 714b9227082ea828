/**
 * Two things the service does over time, seen in the console in a real headless Chromium against
 * the real service: a caller locked out of the sandbox after wrong PINs (typed through the real
 * sandbox entry) is listed on the Sandbox page and is let in again after Clear; and an agent saved
 * on the Agent page is shown training, then live, as its background training ends. Every step also
 * checks that the page raised no CSP violation and no script error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { startGateway, type RunningGateway } from '../../helpers/test-gateway.js';
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
import { WRONG_CREDENTIALS, sandboxLogin } from './sandbox-login.js';

const run = browserAvailable();

describe.skipIf(!run)('the console and sandbox lockouts and agent training', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let streamId = '';
  let sandbox = { phoneNumber: '', pin: '', secret: '' };

  const appUrl = (tab: string) => `${gw.url}/console/apps/${streamId}/${tab}`;

  const login = (from: string, right: boolean) =>
    sandboxLogin(
      gw.url,
      sandbox.phoneNumber,
      from,
      right ? { pin: sandbox.pin, secret: sandbox.secret } : WRONG_CREDENTIALS,
    );

  beforeAll(async () => {
    store = new MemoryStore('console-lockouts:');
    // the number and the address stay open: only the callers' own lockouts are made here
    const open = { points: 100, durationS: 60, blockDurationS: 60 };
    gw = await startGateway({
      store,
      options: { sandbox: { limits: { numberSlow: open, numberLock: open, address: open } } },
    });
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Front desk' })).body.streamId as string;
    browser = await launchBrowser();
    ({ page, problems } = await watchedPage(await browser.newContext({ viewport: VIEWPORTS.desktop })));
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when an agent is saved, then the page says it is training, then that its version is live, and says so again when opened', async () => {
    await page.goto(appUrl('agent'));
    await page.locator('.cm-content').waitFor();
    // every text the status line shows, in order, however short it stays
    await page.evaluate(`(() => {
      const el = document.querySelector('[data-testid="agent-status"]');
      window.__statusTexts = [];
      new MutationObserver(() => window.__statusTexts.push(el.textContent)).observe(el, { childList: true, subtree: true, characterData: true });
    })()`);
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(JSON.stringify(FIXED_AGENT, null, 2));
    await page.getByRole('button', { name: 'Save the agent' }).click();
    await page
      .getByTestId('agent-status')
      .getByText(/^Live: version /)
      .waitFor({ timeout: 60_000 });
    const status = (await gw.admin('GET', `/api/admin/apps/${streamId}/agent/status`)).body;
    expect(status).toMatchObject({ state: 'ready', liveVersion: expect.any(String) });
    const texts = (await page.evaluate<string[]>('window.__statusTexts')).filter(
      (t, i, all) => t && t !== all[i - 1],
    );
    expect(texts[0]).toMatch(/^Saved; training… No version answers turns yet\.$/);
    expect(texts.at(-1)).toMatch(new RegExp(`^Live: version ${status.liveVersion} since `));
    await screenshot(page, 'agent-live-desktop');
    expect(await seriousViolations(page)).toEqual([]);

    await page.reload();
    await page
      .getByTestId('agent-status')
      .getByText(`Live: version ${status.liveVersion}`, { exact: false })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('when a caller is locked out after wrong PINs, then the Sandbox page lists it, and after Clear it is gone and the caller gets in', async () => {
    sandbox = (
      await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, {
        enabled: true,
        maxConcurrentCalls: 5,
      })
    ).body;
    await page.goto(appUrl('sandbox'));
    const lockouts = page.getByTestId('sandbox-lockouts');
    await lockouts.getByText('No caller, address or number is slowed or locked out now.').waitFor();

    const from = '+15550901234';
    const tries: string[] = [];
    for (let i = 0; i < 5; i++) tries.push(await login(from, false));
    expect(tries).toEqual(['checked', 'checked', 'checked', 'checked', 'locked']);
    expect(await login(from, true)).toBe('locked');

    await lockouts.getByRole('button', { name: 'Refresh the lockouts' }).click();
    const row = lockouts.getByRole('row', { name: new RegExp(`\\${from} at `) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual([
      expect.stringMatching(new RegExp(`^\\${from} at \\S+$`)),
      'locked',
      '5',
    ]);
    await screenshot(page, 'sandbox-lockouts-desktop');
    // the table with a row, which the all-pages check (no lockouts there) does not see
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole('button', { name: /^Clear / }).click();
    await page
      .getByRole('dialog', { name: new RegExp(`^Clear the lockout of \\${from} at `) })
      .getByRole('button', { name: 'Clear', exact: true })
      .click();
    await lockouts.getByText('Cleared 1 lockout.').waitFor();
    await lockouts.getByText('No caller, address or number is slowed or locked out now.').waitFor();
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-sandbox/lockouts`)).body.lockouts).toEqual(
      [],
    );
    expect(await login(from, true)).toBe('connected');
    expect(problems).toEqual([]);
  });

  it('when Clear all is confirmed, then every lockout ends; when it is cancelled, none does', async () => {
    for (const from of ['+15550901301', '+15550901302']) for (let i = 0; i < 5; i++) await login(from, false);
    await page.goto(appUrl('sandbox'));
    const lockouts = page.getByTestId('sandbox-lockouts');
    await lockouts.getByRole('row', { name: /\+15550901302 at / }).waitFor();
    expect(await lockouts.getByRole('row', { name: /\+1555090130[12] at / }).count()).toBe(2);

    await lockouts.getByRole('button', { name: 'Clear all' }).click();
    const dialog = page.getByRole('dialog', { name: /Clear every lockout/ });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(
      (await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-sandbox/lockouts`)).body.lockouts,
    ).toHaveLength(2);

    await lockouts.getByRole('button', { name: 'Clear all' }).click();
    await dialog.getByRole('button', { name: 'Clear all' }).click();
    await lockouts.getByText('Cleared 2 lockouts.').waitFor();
    await lockouts.getByText('No caller, address or number is slowed or locked out now.').waitFor();
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-sandbox/lockouts`)).body.lockouts).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });
});
