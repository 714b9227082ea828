/**
 * Versions in a real headless Chromium against the real service: the editor saves a draft in the
 * agent editor (a live call still hears the published version while the sandbox hears the draft),
 * publishes it on the Versions page after a confirmation, compares two versions and rolls back; the
 * viewer sees the versions and why they cannot publish. The page is checked with axe at desktop and
 * phone size and photographed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { startGateway, type RunningGateway } from '../../helpers/test-gateway.js';
import { putAgentAndWait, waitUntilAgentTrained } from '../../helpers/agent-upload.js';
import { makeOperator } from '../../accounts/operator-kit.js';
import { agentSaying, callLines, eventuallyHears, hear } from '../../admin/versions-kit.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  watchedPage,
} from './browser-kit.js';

const run = browserAvailable();

describe.skipIf(!run)('the console Versions page', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let editor: Page;
  let viewer: Page;
  let streamId = '';
  let callUrl = '';
  let sandboxUrl = '';
  const problems: string[][] = [];

  const checkBothSizes = async (page: Page, name: string) => {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      expect(await seriousViolations(page), `${name} at ${size}`).toEqual([]);
      await screenshot(page, `${name}-${size}`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  };

  /** A browser context signed in as the operator (the session cookie their sign-in made). */
  const pageOf = async (cookie: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: gw.url }]);
    const watched = await watchedPage(context);
    problems.push(watched.problems);
    return watched.page;
  };

  beforeAll(async () => {
    store = new MemoryStore('console-versions:');
    gw = await startGateway({ store, config: { cacheTtlMs: 1 } });
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Front desk', language: 'en' })).body
      .streamId;
    await putAgentAndWait(gw.admin, streamId, agentSaying('Version one speaking'));
    await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, { enabled: true });
    ({ callUrl, sandboxUrl } = await callLines(gw, streamId));
    browser = await launchBrowser();
    editor = await pageOf((await makeOperator(gw, 'ed@example.com', [{ role: 'editor' }])).cookie);
    viewer = await pageOf((await makeOperator(gw, 'vi@example.com', [{ role: 'viewer' }])).cookie);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when the editor saves a draft in the agent editor, then a live call hears the published version while the sandbox hears the draft', async () => {
    await editor.goto(`${gw.url}/console/apps/${streamId}/agent`);
    await editor.locator('.cm-content').waitFor();
    await editor.locator('.cm-content').click();
    await editor.keyboard.press('ControlOrMeta+a');
    await editor.keyboard.insertText(JSON.stringify(agentSaying('Version two speaking'), null, 2));
    await editor.getByRole('button', { name: 'Save draft' }).click();
    await editor
      .getByTestId('agent-status')
      .getByText(/Draft: version /)
      .waitFor({ timeout: 60_000 });
    expect(await hear(gw, callUrl)).toContain('Version one speaking');
    expect(await hear(gw, sandboxUrl)).toContain('Version two speaking');
    expect(problems.flat()).toEqual([]);
  });

  it('when the editor publishes the draft on the Versions page after confirming, then calls hear it', async () => {
    await editor.getByRole('link', { name: 'Versions' }).first().click();
    await editor.getByRole('heading', { name: 'Versions', level: 1 }).waitFor();
    const agent = editor.getByRole('region', { name: 'Agent versions' });
    const draftRow = agent.getByRole('row').filter({ hasText: 'Draft' });
    await draftRow.waitFor();
    expect(await draftRow.innerText()).toContain('ed@example.com');
    await checkBothSizes(editor, 'versions-editor');
    await draftRow.getByRole('button', { name: /^Publish/ }).click();
    const dialog = editor.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Calls use version');
    await screenshot(editor, 'versions-confirm');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await agent.getByText(/is published: calls use it now/).waitFor();
    expect(await eventuallyHears(gw, callUrl, 'Version two speaking')).toContain('Version two speaking');
  });

  it('when the editor compares the two versions and rolls back, then the page lists the change and calls hear the earlier version', async () => {
    const agent = editor.getByRole('region', { name: 'Agent versions' });
    await agent.getByRole('button', { name: 'Show the differences' }).click();
    const diff = agent.getByRole('list', { name: /Differences from/ });
    await diff.waitFor();
    expect(await diff.innerText()).toContain('"Version one speaking" → "Version two speaking"');
    // by keyboard: the button focused, then Enter
    await agent.getByRole('button', { name: /^Roll back to this/ }).focus();
    await editor.keyboard.press('Enter');
    const dialog = editor.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await agent
      .getByText(/is training; calls use it when it is trained|is published: calls use it now/)
      .waitFor();
    expect((await waitUntilAgentTrained(gw.admin, streamId)).state).toBe('ready');
    expect(await eventuallyHears(gw, callUrl, 'Version one speaking')).toContain('Version one speaking');
    await screenshot(editor, 'versions-rolled-back');
    expect(problems.flat()).toEqual([]);
  });

  it('when the viewer opens the Versions page, then the versions and their differences show, and the page says why they cannot publish', async () => {
    await viewer.goto(`${gw.url}/console/apps/${streamId}/versions`);
    await viewer.getByRole('heading', { name: 'Versions', level: 1 }).waitFor();
    await viewer.getByRole('region', { name: 'Agent versions' }).getByRole('row').nth(2).waitFor();
    expect(await viewer.getByRole('button', { name: /^Publish|^Roll back/ }).count()).toBe(0);
    const notes = await viewer.getByRole('note').allInnerTexts();
    expect(notes).toHaveLength(2);
    for (const n of notes) expect(n).toContain('it needs the editor role');
    await checkBothSizes(viewer, 'versions-viewer');
    expect(problems.flat()).toEqual([]);
  });
});
