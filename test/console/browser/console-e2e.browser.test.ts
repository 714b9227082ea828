/**
 * The operator console end to end, in a real headless Chromium against the real service on a real
 * port: sign in, create an app, paste an agent with two mistakes and see both at their lines, fix
 * it and see the diagram, switch the channel on and copy the snippet, change a setting and see the
 * diff, switch the sandbox on and note its PIN and secret, upload a suite and run it to 100% with
 * its chart, make a call through the sandbox caller and read its transcript in the history. Every
 * step also checks that the page raised no CSP violation and no script error. Minting tokens and
 * making new secrets: console-credentials.browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { runCall } from '../../../sandbox/index.js';
import { startGateway, type RunningGateway } from '../../helpers/test-gateway.js';
import { IvrCall } from '../../helpers/ivr-call.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  watchedPage,
  type AxeViolation,
} from './browser-kit.js';
import { FIXED_AGENT, SUITE_CSV, brokenAgent, lineContaining } from './console-fixtures.js';

const run = browserAvailable();

describe.skipIf(!run)('operator console in Chromium', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let streamId = '';
  let sandbox = { number: '', pin: '', secret: '' };
  let runPage = '';
  let transcriptPage = '';
  let connectionPage = '';

  const appUrl = (tab = '') => `${gw.url}/console/apps/${streamId}${tab ? `/${tab}` : ''}`;

  beforeAll(async () => {
    store = new MemoryStore('console-e2e:');
    // checkpoints every two utterances, so the progress bar moves in steps
    gw = await startGateway({ store, options: { testRuns: { chunkSize: 2 } } });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.url });
    ({ page, problems } = await watchedPage(context));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when the operator signs in with the admin token, then the apps page opens and the session cookie is httpOnly and SameSite=Strict', async () => {
    await page.goto(`${gw.url}/console/`);
    await page.getByLabel('Admin token').fill(gw.config.adminToken);
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'ivr_console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate('document.cookie')).not.toContain('ivr_console_session');
    expect(problems).toEqual([]);
  });

  it('when an app is created, then it is listed and its overview opens from the list', async () => {
    await page.getByLabel('Name').fill('Front desk');
    await page.getByRole('button', { name: 'Create app' }).click();
    const link = page.getByRole('link', { name: 'Front desk' });
    await link.waitFor();
    await link.click();
    await page.getByRole('heading', { name: 'Front desk', level: 1 }).waitFor();
    streamId = new URL(page.url()).pathname.split('/')[3] ?? '';
    expect(streamId).toMatch(/^st-/);
    expect(problems).toEqual([]);
  });

  it('when an agent with two mistakes is saved, then both problems are shown at their lines in the editor', async () => {
    await page.goto(appUrl('agent'));
    await page.locator('.cm-content').waitFor();
    const text = JSON.stringify(brokenAgent(), null, 2);
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
    await page.getByRole('button', { name: 'Save the agent' }).click();
    const list = page.getByTestId('agent-problems');
    await list.waitFor();
    const items = await list.locator('li').allInnerTexts();
    expect(items).toHaveLength(2);
    const typeLine = lineContaining(text, '"type": "mesage"');
    const dialogLine = lineContaining(text, '"dialog": "reservations"');
    expect(items.find((i) => i.includes('mesage'))).toContain(`Line ${typeLine}`);
    expect(items.find((i) => i.includes('reservations'))).toContain(`Line ${dialogLine}`);
    // the editor marks both places: a lint marker in the gutter of each line
    await page.locator('.cm-lintRange-error').first().waitFor();
    expect(await page.locator('.cm-lintRange-error').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'agent-errors-desktop');
    expect(problems).toEqual([]);
  });

  it('when the mistakes are fixed, then the agent is saved and the diagram shows every dialog with its start node', async () => {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(JSON.stringify(FIXED_AGENT, null, 2));
    await page.getByRole('button', { name: 'Save the agent' }).click();
    await page
      .getByTestId('agent-status')
      .getByText(/^Live: version /)
      .waitFor({ timeout: 60_000 });
    const diagram = page.getByTestId('diagram');
    for (const id of ['hello', 'tell', 'bye', 'size', 'tooMany', 'done', 'sorry'])
      await diagram.locator(`[data-node="${id}"]`).waitFor();
    expect(await diagram.locator('.node.start').count()).toBe(4);
    expect(await diagram.locator('.edge-label').allTextContents()).toContain('context.entities.size > 8');
    expect((await gw.admin('GET', `/api/admin/apps/${streamId}/agent`)).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('when the IVR channel is switched on, then the secret is shown once, and the snippet with the webhook URL is copied to the clipboard', async () => {
    await page.goto(appUrl());
    await page.getByRole('switch', { name: 'Switch the channel on' }).click();
    const secret = await page.getByTestId('client-secret').innerText();
    expect(secret.length).toBeGreaterThan(20);
    const webhookUrl = await page.getByTestId('webhook-url').innerText();
    expect(webhookUrl).toBe(`${gw.url}/ivr/hooks/${streamId}`);
    await screenshot(page, 'overview-secret-desktop');
    await page.getByRole('button', { name: 'I have stored it, hide it' }).click();
    expect(await page.getByTestId('client-secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByText('Copied').waitFor();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toContain(`<subdialog name="bot" src="${webhookUrl}?token=YOUR_TOKEN">`);
    expect(copied).toContain('<param name="to" expr="\'' + streamId + '\'"/>');
    expect(copied).not.toContain(secret);
    expect(problems).toEqual([]);
  });

  it('when a setting is changed, then a wrong value is flagged at its field and the diff lists the change before it is saved', async () => {
    await page.goto(appUrl('ivr-settings'));
    const retries = page.getByLabel('Retries', { exact: true });
    await retries.fill('20');
    await page.locator('#f-retries-error').waitFor();
    expect(await retries.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Review changes' }).isDisabled()).toBe(true);
    await retries.fill('2');
    await page.getByLabel('Dialect').selectOption('jvoicexml');
    await page.getByText(/JVoiceXML 0\.7\.9/).waitFor();
    await page.getByRole('button', { name: 'Review changes' }).click();
    const diffTable = page.getByTestId('settings-diff');
    await diffTable.waitFor();
    const rows = await diffTable.locator('tbody tr').allInnerTexts();
    expect(rows.some((r) => r.includes('retries') && r.includes('3') && r.includes('2'))).toBe(true);
    expect(rows.some((r) => r.includes('dialect') && r.includes('"w3c"') && r.includes('"jvoicexml"'))).toBe(
      true,
    );
    await screenshot(page, 'settings-diff-desktop');
    await page.getByRole('button', { name: 'Save these changes' }).click();
    await page.getByText(/Saved at/).waitFor();
    const stored = await gw.admin('GET', `/api/admin/apps/${streamId}/ivr-settings`);
    expect(stored.body).toMatchObject({ retries: 2, dialect: 'jvoicexml' });
    // back to the default dialect for the sandbox call below
    await page.getByLabel('Dialect').selectOption('w3c');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('button', { name: 'Save these changes' }).click();
    await page.getByText(/Saved at/).waitFor();
    expect(problems).toEqual([]);
  });

  it('when the sandbox is switched on, then its number, PIN and secret are shown at once', async () => {
    await page.goto(appUrl('sandbox'));
    await page.getByRole('switch', { name: 'Switch the sandbox on' }).click();
    const number = await page.getByTestId('sandbox-number').innerText();
    expect(number).toMatch(/^\+1555\d+$/);
    await page.getByRole('button', { name: 'Show PIN' }).click();
    await page.getByRole('button', { name: 'Show secret' }).click();
    sandbox = {
      number,
      pin: await page.getByTestId('sandbox-pin').innerText(),
      secret: await page.getByTestId('sandbox-secret').innerText(),
    };
    expect(sandbox.pin).toMatch(/^\d{6}$/);
    expect(sandbox.secret).toMatch(/^\d{8}$/);
    expect(await page.getByTestId('sandbox-lines-in-use').innerText()).toBe('0 of 2');
    await screenshot(page, 'sandbox-credentials-desktop');
    expect(problems).toEqual([]);
  });

  it('when a suite is uploaded and run, then the progress bar reaches 100% and the chart and confusion matrix show the results', async () => {
    await page.goto(appUrl('test-runs'));
    await page
      .getByLabel('Suite file (CSV or JSON)')
      .setInputFiles({ name: 'smoke.csv', mimeType: 'text/csv', buffer: Buffer.from(SUITE_CSV) });
    await page.getByText('7 utterances read.').waitFor();
    await page.getByRole('button', { name: 'Upload the suite' }).click();
    await page.getByRole('button', { name: 'Start a run' }).waitFor();
    await page.getByRole('button', { name: 'Start a run' }).click();
    const seen: string[] = [];
    const progress = page.getByTestId('run-progress');
    await progress.waitFor();
    await expect
      .poll(
        async () => {
          const value = await progress.getAttribute('value');
          if (value !== null && seen.at(-1) !== value) seen.push(value);
          return value;
        },
        { timeout: 90_000, interval: 100 },
      )
      .toBe('100');
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
    expect(await page.getByTestId('run-percent').innerText()).toBe('100%');
    const chart = page.getByTestId('score-chart');
    await chart.waitFor();
    expect(await chart.locator('rect.bar').count()).toBe(2 * 3);
    const matrix = page.getByTestId('confusion-matrix');
    expect(await matrix.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    const cells = (await matrix.locator('td').allInnerTexts()).map(Number);
    expect(cells.reduce((a, b) => a + b, 0)).toBe(7);
    expect(await page.getByRole('link', { name: 'Download the results (CSV)' }).getAttribute('href')).toMatch(
      /\/api\/public\/testruns\/files\/|exp=/,
    );
    await screenshot(page, 'test-run-desktop');
    runPage = page.url();
    expect(problems).toEqual([]);
  });

  it('when a tester calls through the sandbox caller, then the call is listed in the history and its transcript shows ASR confidence and input mode', async () => {
    const result = await runCall({
      startUrl: `${gw.url}/ivr/sandbox/${encodeURIComponent(sandbox.number)}`,
      startMethod: 'POST',
      startParams: { from: '+15550004444' },
      pin: sandbox.pin,
      secret: sandbox.secret,
      mode: 'lenient',
      inputs: ['when are you open'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    expect(result.spoken.join(' ')).toContain('We are open from nine to five');
    await page.goto(appUrl('history'));
    const calls = page.getByTestId('history-calls');
    await calls.waitFor();
    await calls
      .getByRole('link', { name: /Open transcript/ })
      .first()
      .click();
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('when are you open').waitFor();
    const asr = await transcript.getByTestId('asr').allInnerTexts();
    expect(asr.length).toBeGreaterThanOrEqual(1);
    expect(asr.join(' ')).toMatch(/ASR confidence \d+% · input mode (voice|dtmf)/);
    expect(await transcript.getByText('We are open from nine to five.').count()).toBe(1);
    await screenshot(page, 'history-transcript-desktop');
    transcriptPage = page.url();
    await gw.docs.validateAll();
    expect(problems).toEqual([]);
  });

  it('when a connection, a data table and a skill group are created in their pages, then they are listed and the API key is shown masked', async () => {
    await page.goto(`${gw.url}/console/connections`);
    await page.getByText('No model connections yet.').waitFor();
    const apiKey = 'sk-console-test-0123456789abcdefXYZ';
    await page.getByLabel('Name', { exact: true }).fill('Support model');
    await page.getByLabel('Model', { exact: true }).fill('model-a-large');
    await page.getByLabel('API key', { exact: true }).fill(apiKey);
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('link', { name: 'Support model' }).click();
    await page.getByRole('heading', { name: 'Support model', level: 2 }).waitFor();
    connectionPage = page.url();
    const shownKey = await page.locator('dd code').last().innerText();
    expect(shownKey).toMatch(/^sk-\*+$/);
    expect(await page.content()).not.toContain(apiKey);

    await page.goto(`${gw.url}/console/tables`);
    await page.getByLabel('Table name').fill('callbacks');
    await page.getByLabel('Name', { exact: true }).fill('phone');
    await page.getByLabel('required').check();
    await page.getByRole('button', { name: 'Define the table' }).click();
    await page.getByRole('heading', { name: 'callbacks', level: 2 }).waitFor();
    expect(await page.getByRole('cell', { name: 'phone' }).count()).toBe(1);
    expect((await gw.admin('GET', '/api/admin/tables/callbacks')).body.columns).toMatchObject([
      { name: 'phone', type: 'string', required: true },
    ]);

    await page.goto(`${appUrl('skill-groups')}?accountId=acc-1&orgId=org-1`);
    await page.getByText('No skill groups for this account and organisation.').waitFor();
    await page.getByLabel('Id', { exact: true }).fill('sg-front');
    await page.getByLabel('Name', { exact: true }).fill('Front office');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('cell', { name: 'Front office' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('when the operator works with the keyboard only, then focus is visible, the skip link leads to the content and the delete confirmation names the app, cancels on Escape and returns focus', async () => {
    const spare = await gw.admin('POST', '/api/admin/apps', { name: 'Spare line' });
    await page.goto(`${gw.url}/console/`);
    await page.getByRole('link', { name: 'Spare line' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = await page.evaluate<{ text: string; outline: string }>(
      `({ text: document.activeElement.textContent, outline: getComputedStyle(document.activeElement).outlineStyle })`,
    );
    expect(skip).toEqual({ text: 'Skip to content', outline: 'solid' });
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('main');
    const remove = page.getByRole('button', { name: 'Delete Spare line' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete “Spare line”?' });
    await dialog.waitFor();
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate<string>('document.activeElement.getAttribute("aria-label")')).toBe(
      'Delete Spare line',
    );
    expect((await gw.admin('GET', `/api/admin/apps/${spare.body.streamId}`)).status).toBe(200);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Delete Spare line');
    await page.keyboard.press('Enter');
    await page.getByText('Deleted Spare line.').waitFor();
    expect((await gw.admin('GET', `/api/admin/apps/${spare.body.streamId}`)).status).toBe(404);
    expect(problems).toEqual([]);
  });

  it('when every page is opened at 1280x800 and 390x844, light and dark, then axe finds no serious or critical violation and a screenshot is kept', async () => {
    const tables = await gw.admin('PUT', '/api/admin/tables/bookings', {
      columns: [
        { name: 'guest', type: 'string', required: true },
        { name: 'size', type: 'number' },
      ],
    });
    expect(tables.status).toBe(200);
    // a call straight to the webhook, for the call inspector's list and its page (the agent ends it)
    const minted = await gw.admin('POST', `/api/admin/apps/${streamId}/channels/ivr/tokens`, {
      sub: '+15550005555',
      expiresInS: 3600,
    });
    expect(minted.status).toBe(201);
    const call = new IvrCall(gw, minted.body.webhookUrl, '+15550005555');
    await call.start();
    expect(await call.say('when are you open')).toContain('We are open from nine to five');
    // the call's page says what the agent said, two messages read with a space between them
    await page.goto(appUrl(`calls/${encodeURIComponent(call.callId)}`));
    await expect
      .poll(async () => page.getByTestId('agent-bubble').allInnerTexts())
      .toContainEqual(expect.stringContaining('nine to five. Thank you for calling'));
    const pages: Array<[string, string, string]> = [
      ['apps', `${gw.url}/console/`, 'Apps'],
      ['overview', appUrl(), 'Front desk'],
      ['agent', appUrl('agent'), 'Agent'],
      ['ivr-settings', appUrl('ivr-settings'), 'IVR settings'],
      ['sandbox', appUrl('sandbox'), 'Sandbox'],
      ['test-runs', runPage, 'Test runs'],
      ['history', appUrl('history'), 'History'],
      ['history-transcript', transcriptPage, 'History'],
      ['calls', appUrl('calls'), 'Calls'],
      ['call-page', appUrl(`calls/${encodeURIComponent(call.callId)}`), `Call ${call.callId}`],
      ['web-caller', appUrl('call'), 'Call'],
      ['skill-groups', `${appUrl('skill-groups')}?accountId=acc-1&orgId=org-1`, 'Skill groups'],
      ['connections', `${gw.url}/console/connections`, 'Model connections'],
      ['connection', connectionPage, 'Model connections'],
      ['tables', `${gw.url}/console/tables/bookings`, 'Data tables'],
      ['not-found', `${gw.url}/console/nowhere`, 'Page not found'],
    ];
    const found: Record<string, AxeViolation[]> = {};
    const wide: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        for (const [name, url, heading] of pages) {
          await page.goto(url);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          // every part of the page has loaded (a page may show several loading marks at once)
          while ((await page.locator('.loading').count()) > 0)
            await page.locator('.loading').first().waitFor({ state: 'detached' });
          const violations = await seriousViolations(page);
          if (violations.length) found[`${name} ${size} ${scheme}`] = violations;
          // the page fits the screen: only marked regions (code, tables, diagrams) scroll sideways
          const pageWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
          if (pageWidth > viewport.width) wide.push(`${name} ${size}: ${pageWidth}px`);
          await screenshot(page, `${name}-${size}${scheme === 'dark' ? '-dark' : ''}`);
        }
      }
    }
    // the sign-in page, signed out in a fresh context, at both sizes, light and dark
    const fresh = await browser.newContext();
    const signIn = await fresh.newPage();
    for (const scheme of ['light', 'dark'] as const) {
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await signIn.setViewportSize(viewport);
        await signIn.emulateMedia({ colorScheme: scheme });
        await signIn.goto(`${gw.url}/console/`);
        await signIn.getByLabel('Admin token').waitFor();
        const signInViolations = await seriousViolations(signIn);
        if (signInViolations.length) found[`sign-in ${size} ${scheme}`] = signInViolations;
        await screenshot(signIn, `sign-in-${size}${scheme === 'dark' ? '-dark' : ''}`);
      }
    }
    await fresh.close();
    // the summary (rule, impact, where) reads better than the whole report
    const summary = Object.fromEntries(
      Object.entries(found).map(([k, vs]) => [
        k,
        vs.map(
          (v) =>
            `${v.id} (${v.impact}) at ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
        ),
      ]),
    );
    expect(summary).toEqual({});
    expect(wide).toEqual([]);
    expect(problems).toEqual([]);
    // 64 page loads and 4 sign-in loads, each with an axe run: more than the project's two minutes on a busy machine
  }, 540_000);

  it('when the operator signs out, then the session ends: the cookie is gone and the console asks to sign in again', async () => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(appUrl());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'ivr_console_session')).toBeUndefined();
    await page.goto(appUrl('agent'));
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(problems).toEqual([]);
  });
});
