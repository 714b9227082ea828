/**
 * Operators as people, in a real headless Chromium against the real service: the owner (the admin
 * token) invites an editor and a viewer on the Accounts page; each opens the invitation link, sets
 * a password and signs in with email and password; the viewer cannot save the agent (the page says
 * why, and the API answers 403); the editor saves it and makes a personal token; the Audit page lists
 * each change with its author and diff. Every new page is checked with axe at desktop and phone size
 * and photographed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { startGateway, type RunningGateway } from '../../helpers/test-gateway.js';
import { putAgentAndWait } from '../../helpers/agent-upload.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  signIn,
  watchedPage,
} from './browser-kit.js';
import { FIXED_AGENT } from './console-fixtures.js';

const run = browserAvailable();

describe.skipIf(!run)('the console with operator accounts', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let owner: Page;
  const problems: string[][] = [];
  let streamId = '';
  const links: Record<string, string> = {};

  const checkBothSizes = async (page: Page, name: string) => {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      expect(await seriousViolations(page), `${name} at ${size}`).toEqual([]);
      await screenshot(page, `${name}-${size}`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  };

  /** A fresh browser context: follows the invitation link, sets the password and signs in. */
  const joinAs = async (email: string, password: string): Promise<Page> => {
    const watched = await watchedPage(await browser.newContext({ viewport: VIEWPORTS.desktop }));
    problems.push(watched.problems);
    const page = watched.page;
    await page.goto(links[email]!);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('The same password again').fill(password);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
    await page.getByRole('button', { name: 'Go to sign-in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
    return page;
  };

  beforeAll(async () => {
    store = new MemoryStore('console-accounts:');
    gw = await startGateway({ store });
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Front desk', language: 'en' })).body
      .streamId;
    await putAgentAndWait(gw.admin, streamId, FIXED_AGENT);
    await gw.admin('PATCH', `/api/admin/apps/${streamId}/ivr-settings`, { retries: 2 });
    browser = await launchBrowser();
    const watched = await watchedPage(await browser.newContext({ viewport: VIEWPORTS.desktop }));
    owner = watched.page;
    problems.push(watched.problems);
    await signIn(owner, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when the owner invites an editor and a viewer on the Accounts page, then each link is shown once and the accounts are listed as invited', async () => {
    await owner.getByRole('link', { name: 'Accounts' }).click();
    await owner.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    for (const [email, role] of [
      ['ed@example.com', 'editor'],
      ['vi@example.com', 'viewer'],
    ] as const) {
      await owner.getByLabel('Email').fill(email);
      await owner.getByLabel('Role').selectOption(role);
      await owner.getByRole('button', { name: 'Invite', exact: true }).click();
      const shown = owner.getByRole('status').filter({ hasText: `Send this link to ${email}` });
      await shown.waitFor();
      links[email] = await shown.locator('code').innerText();
      expect(links[email]).toContain('/console/invitation#inv_');
    }
    const rows = owner.getByRole('row');
    await rows.filter({ hasText: 'vi@example.com' }).waitFor();
    expect(await rows.filter({ hasText: 'ed@example.com' }).innerText()).toContain('invited');
    await checkBothSizes(owner, 'accounts');
  });

  it('when the viewer signs in, then the agent page says the viewer cannot save and the API refuses with 403 naming the role', async () => {
    const viewer = await joinAs('vi@example.com', 'viewer-password-123');
    expect(await viewer.getByRole('link', { name: 'Accounts' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Create app' }).count()).toBe(0);
    await viewer.goto(`${gw.url}/console/apps/${streamId}/agent`);
    const save = viewer.getByRole('button', { name: 'Save the agent' });
    await save.waitFor();
    expect(await save.isDisabled()).toBe(true);
    expect(await viewer.getByRole('note').innerText()).toContain('it needs the editor role');
    await checkBothSizes(viewer, 'agent-as-viewer');
    const cookie = (await viewer.context().cookies()).find((c) => c.name === 'ivr_console_session')!;
    const refused = await fetch(`${gw.url}/api/admin/apps/${streamId}/agent`, {
      method: 'PUT',
      headers: {
        Cookie: `${cookie.name}=${cookie.value}`,
        Origin: gw.url,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(FIXED_AGENT),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe(
      'role_required',
    );
  });

  it('when the editor signs in, then the agent saves, a personal token is made and shown once, and the Audit page lists both with the author and the diff', async () => {
    const editor = await joinAs('ed@example.com', 'editor-password-123');
    await editor.goto(`${gw.url}/console/apps/${streamId}/agent`);
    const save = editor.getByRole('button', { name: 'Save the agent' });
    await save.waitFor();
    expect(await save.isDisabled()).toBe(false);
    const [answer] = await Promise.all([
      editor.waitForResponse((r) => r.url().endsWith('/agent') && r.request().method() === 'PUT'),
      save.click(),
    ]);
    expect(answer.status()).toBe(202);

    await editor.getByRole('link', { name: 'Your account' }).click();
    await editor.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    await editor.getByLabel('Name').fill('deploy script');
    await editor.getByRole('button', { name: 'Make a token' }).click();
    const shown = editor.getByRole('status').filter({ hasText: 'shown this once' });
    await shown.waitFor();
    expect(await shown.locator('code').innerText()).toMatch(/^pat_/);
    await editor.getByRole('button', { name: 'Revoke deploy script' }).waitFor();
    await checkBothSizes(editor, 'my-account');

    await editor.getByRole('link', { name: 'Audit' }).click();
    await editor.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    const tokenRow = editor.getByRole('row').filter({ hasText: 'POST /api/account/tokens' });
    await tokenRow.waitFor();
    expect(await tokenRow.innerText()).toContain('ed@example.com');
    // the agent saved as it was: recorded, with no change in its diff
    const agentRows = editor.getByRole('row').filter({ hasText: 'PUT /api/admin/apps/:streamId/agent' });
    expect(await agentRows.filter({ hasText: 'ed@example.com' }).innerText()).toContain('no change');
    expect(await agentRows.filter({ hasText: 'admin token' }).innerText()).toMatch(/\d+ changes/);
    // the owner's settings change, with its diff
    const settingsRow = editor
      .getByRole('row')
      .filter({ hasText: 'PATCH /api/admin/apps/:streamId/ivr-settings' });
    expect(await settingsRow.innerText()).toContain('admin token');
    await settingsRow.getByText(/change/).click();
    expect(await settingsRow.innerText()).toMatch(/retries: \d+ → 2/);
    // filtered by author, kept in the URL
    await editor.getByLabel(/Author/).fill('vi@example.com');
    await editor.getByRole('button', { name: 'Filter' }).click();
    await editor.waitForURL(/author=vi%40example.com/);
    await editor.getByText('POST /api/accounts/invitation').waitFor();
    expect(await editor.getByRole('row').filter({ hasText: 'ed@example.com' }).count()).toBe(0);
    await editor.goto(`${gw.url}/console/audit`);
    await editor.getByRole('row').filter({ hasText: 'POST /api/account/tokens' }).waitFor();
    await checkBothSizes(editor, 'audit');
    expect(problems.flat()).toEqual([]);
  });

  it('when the sign-in page is shown, then both ways in are there and it is axe-clean at both sizes', async () => {
    const watched = await watchedPage(await browser.newContext({ viewport: VIEWPORTS.desktop }));
    await watched.page.goto(`${gw.url}/console/`);
    await watched.page.getByLabel('Email').waitFor();
    await watched.page.getByLabel('Admin token').waitFor();
    await checkBothSizes(watched.page, 'sign-in');
    expect(watched.problems).toEqual([]);
  });
});
