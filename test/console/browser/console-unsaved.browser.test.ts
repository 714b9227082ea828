/**
 * Unsaved edits are not thrown away silently, in a real headless Chromium against the real service:
 * with the agent's text or an IVR setting edited and not saved, a click on another tab asks first
 * (Cancel keeps the page and the edit, "Leave without saving" leaves), and a reload asks with the
 * browser's own prompt. With nothing edited, or once the edit is saved, nothing asks. Every step
 * also checks that the page raised no CSP violation and no script error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { setupIvrApp, startGateway, type RunningGateway } from '../../helpers/test-gateway.js';
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

describe.skipIf(!run)('the console asks before unsaved edits are left behind', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  /** the page most tests use */
  let main: { page: Page; problems: string[] };
  let streamId = '';

  const appUrl = (tab: string) => `${gw.url}/console/apps/${streamId}/${tab}`;
  const leaveDialog = () => page.getByRole('dialog', { name: 'Leave without saving?' });
  const tab = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
  const heading = (name: string) => page.getByRole('heading', { name, level: 1 });
  const editedAgent = () => JSON.stringify({ ...FIXED_AGENT, intentThreshold: 0.6 }, null, 2);

  async function openAgent(): Promise<void> {
    await page.goto(appUrl('agent'));
    await page.locator('.cm-content').waitFor();
  }
  async function editAgent(): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(editedAgent());
  }
  const editorText = () => page.locator('.cm-content').innerText();
  /**
   * whether a cancelable beforeunload event is cancelled by the page (what makes the browser ask);
   * the page adds or drops its handler once it has rendered the edit or the save, so it is polled
   */
  const holdsUnload = () =>
    page.evaluate<boolean>(`!window.dispatchEvent(new Event('beforeunload', { cancelable: true }))`);
  const retries = () => page.getByLabel('Retries', { exact: true });

  beforeAll(async () => {
    store = new MemoryStore('console-unsaved:');
    gw = await startGateway({ store });
    streamId = (await setupIvrApp(gw, { agent: FIXED_AGENT, name: 'Front desk' })).streamId;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    main = await watchedPage(context);
    ({ page, problems } = main);
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when nothing is edited, then switching between the agent and the settings tabs asks nothing', async () => {
    await openAgent();
    await tab('IVR settings').click();
    await heading('IVR settings').waitFor();
    await retries().waitFor();
    await tab('Agent').click();
    await page.locator('.cm-content').waitFor();
    expect(await leaveDialog().count()).toBe(0);
    await expect.poll(() => holdsUnload()).toBe(false);
    expect(problems).toEqual([]);
  });

  it('when the agent text is edited and another tab is clicked, then the dialog asks; Cancel keeps the page and the edit, and leaving goes', async () => {
    await openAgent();
    await editAgent();
    await tab('IVR settings').click();
    const dialog = leaveDialog();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Your changes to the agent definition are not saved.');
    // the modal takes the focus, on Cancel
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Cancel');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'unsaved-agent-dialog-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/console/apps/${streamId}/agent`);
    expect(await heading('Agent').count()).toBe(1);
    expect(await editorText()).toContain('"intentThreshold": 0.6');
    // the focus is back on the tab that was clicked
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('IVR settings');

    await tab('IVR settings').click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await heading('IVR settings').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/apps/${streamId}/ivr-settings`);
    // nothing was saved
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/agent`)).body).toMatchObject({
      intentThreshold: 0.5,
    });
    expect(problems).toEqual([]);
  });

  it('when a setting is edited and another tab is clicked, then the dialog asks; Escape keeps the page and the edit, and leaving goes', async () => {
    await page.goto(appUrl('ivr-settings'));
    await retries().fill('2');
    await page.getByText('1 unsaved change.').waitFor();
    await expect.poll(() => holdsUnload()).toBe(true);
    await tab('Agent').click();
    const dialog = leaveDialog();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Your changes to the IVR settings are not saved.');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/console/apps/${streamId}/ivr-settings`);
    expect(await retries().inputValue()).toBe('2');

    await tab('Agent').click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await heading('Agent').waitFor();
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-settings`)).body).toMatchObject({
      retries: 3,
    });
    expect(problems).toEqual([]);
  });

  it('when the agent text is edited and the tab is closed, then the browser asks with its own beforeunload prompt, and not once the edit is undone', async () => {
    // a page of its own: closing is how playwright lets the page run its beforeunload handlers
    // (its reload and goto skip them); the session cookie is the context's
    const other = await watchedPage(context);
    const asked: string[] = [];
    other.page.on('dialog', (d) => {
      asked.push(d.type());
      // staying: the page stays open to be checked below
      void d.dismiss();
    });
    page = other.page;
    try {
      await openAgent();
      await editAgent();
      // Chromium shows the prompt only to a page the user has interacted with: typing in the
      // editor alone did not count here, a plain click does
      await heading('Agent').click();
      await page.close({ runBeforeUnload: true });
      await expect.poll(() => asked).toEqual(['beforeunload']);
      expect(page.isClosed()).toBe(false);
      // the handler cancels the unload, which is what makes the browser ask
      await expect.poll(() => holdsUnload()).toBe(true);
      // with the edit undone, the text is as it was loaded and nothing holds the page any more
      await page.locator('.cm-content').click();
      await page.keyboard.press('ControlOrMeta+z');
      await expect.poll(() => editorText()).toContain('"intentThreshold": 0.5');
      await expect.poll(() => holdsUnload()).toBe(false);
      await page.close({ runBeforeUnload: true });
      await expect.poll(() => page.isClosed()).toBe(true);
      expect(asked).toEqual(['beforeunload']);
      expect(other.problems).toEqual([]);
    } finally {
      ({ page, problems } = main);
    }
  });

  it('when the agent edit is saved, then leaving the page asks nothing', async () => {
    await openAgent();
    await editAgent();
    await page.getByRole('button', { name: 'Save the agent' }).click();
    await page
      .getByTestId('agent-status')
      .getByText(/^Live: version /)
      .waitFor({ timeout: 60_000 });
    await expect.poll(() => holdsUnload()).toBe(false);
    await tab('IVR settings').click();
    await heading('IVR settings').waitFor();
    expect(await leaveDialog().count()).toBe(0);
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/agent`)).body).toMatchObject({
      intentThreshold: 0.6,
    });
    expect(problems).toEqual([]);
  });

  it('when the settings edit is saved, then leaving the page asks nothing', async () => {
    await page.goto(appUrl('ivr-settings'));
    await retries().fill('2');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('button', { name: 'Save these changes' }).click();
    await page.getByText(/Saved at/).waitFor();
    await expect.poll(() => holdsUnload()).toBe(false);
    await tab('Agent').click();
    await heading('Agent').waitFor();
    expect(await leaveDialog().count()).toBe(0);
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-settings`)).body).toMatchObject({
      retries: 2,
    });
    expect(problems).toEqual([]);
  });
});
