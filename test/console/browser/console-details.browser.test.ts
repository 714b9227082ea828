/**
 * The console's details, in a real headless Chromium against the real service: what a page shows
 * when its code or its data does not come (an error box with a way back, not a blank page) and
 * while its data is on its way; the history filters, each one excluding what the others would
 * show and all of them kept in the URL; and the parts of built pages a broken build would lose
 * quietly: the confirmations before switching the channel or the sandbox off, the webhook URL's
 * copy button, the lines in use during a sandbox call, a JSON suite, a run's progress part way,
 * its table per utterance and its CSV download, the diagram's unreachable nodes, the editor's line
 * numbers and highlighting, and the settings' help and defaults as /openapi.json states them.
 *
 * Failures of the network (a chunk or a request answered 404 or 503) are made with page.route; a
 * run is held part way through the store (GatedStore), as a slow Redis would.
 */
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import Papa from 'papaparse';
import { createHistoryComponent } from '../../../src/history/index.js';
import { AppError } from '../../../src/platform/index.js';
import { rateLimitersOf, storeKeys, type WriteOp } from '../../../src/store/index.js';
import { GatedStore } from '../../helpers/gated-store.js';
import { IvrCall, spokenOf } from '../../helpers/ivr-call.js';
import { ivrCall } from '../../history/ivr-call.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../../helpers/test-gateway.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  signIn,
  watchedPage,
} from './browser-kit.js';
import { FIXED_AGENT, SUITE_CSV } from './console-fixtures.js';

const run = browserAvailable();
const DAY = 86_400_000;
/** The UTC day of a time, as the history filters take it. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** Two callers, each with a call today. */
const ANN = '+15550001001';
const BEN = '+15550002002';
/** The smoke suite of console-fixtures.ts, as the JSON a suite file may hold. */
const SUITE = SUITE_CSV.trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [utterance, intent] = line.split(',');
    return { utterance: utterance!, intent: intent! };
  });

describe.skipIf(!run)('the console in detail', () => {
  let gw: RunningGateway;
  let store: GatedStore;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let app: IvrApp;

  const appUrl = (tab = '') => `${gw.url}/console/apps/${app.streamId}${tab ? `/${tab}` : ''}`;
  /** Problems other than the ones a test made on purpose (a request it answered with `status`). */
  const unexpected = (status?: number) =>
    problems.filter((p) => status === undefined || !p.includes(`status of ${status}`));

  beforeAll(async () => {
    store = new GatedStore('console-details:');
    gw = await startGateway({
      store,
      options: {
        // checkpoints every two utterances, so a run can be held part way
        testRuns: { chunkSize: 2 },
        // the history and run pages read through the public API many times in a minute here
        rateLimits: { botApi: { perMinute: 10_000, perHour: 100_000 } },
      },
    });
    app = await setupIvrApp(gw, { agent: FIXED_AGENT, name: 'Front desk' });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.url });
    ({ page, problems } = await watchedPage(context));
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      console.log(
        'the page showed:',
        problems,
        await page
          .locator('main')
          .innerText()
          .catch(() => ''),
      );
    problems.splice(0);
    // a failed test leaves no request answered on purpose for the next ones
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it("when a page's code does not load, then the page says so with a reload, the app's tabs stay, and the reload brings the page", async () => {
    await page.goto(appUrl());
    await page.getByRole('heading', { name: 'Front desk', level: 1 }).waitFor();
    // as after a redeploy: the chunk this console names is gone
    const gone = (route: Route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    await page.route('**/console/assets/settings-page-*.js', gone);
    await page.getByRole('link', { name: 'IVR settings' }).click();
    const box = page.getByRole('alert').filter({ hasText: 'The page did not load' });
    await box.waitFor();
    expect(await box.innerText()).toContain('reload the page to get the current version');
    expect(await page.getByRole('link', { name: 'IVR settings' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('navigation', { name: 'Front desk pages' }).isVisible()).toBe(true);
    await screenshot(page, 'details-chunk-failed-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    // another tab opens as usual, and coming back still says so (the code is still missing)
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Front desk', level: 1 }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('link', { name: 'IVR settings' }).click();
    await box.waitFor();
    // the new console is deployed: the reload brings the page
    await page.unroute('**/console/assets/settings-page-*.js', gone);
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await page.getByRole('heading', { name: 'IVR settings', level: 1 }).waitFor();
    await page.getByLabel('Retries', { exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // a page outside the app (its own chunk too) says the same in the main area, under the header
    await page.route('**/console/assets/connections-page-*.js', gone);
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('alert').filter({ hasText: 'The page did not load' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'details-chunk-failed-phone');
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.unroute('**/console/assets/connections-page-*.js', gone);
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await page.getByRole('heading', { name: 'Model connections', level: 1 }).waitFor();
    expect(unexpected()).toEqual([]);
  });

  it("when a page's data request fails, then the error box shows the service's words and Try again loads the page once the service answers", async () => {
    const statusUrl = `**/api/admin/apps/${app.streamId}/ivr-sandbox/status`;
    let refused = 0;
    const outage = (route: Route) => {
      refused += 1;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ ...AppError.storeUnavailable().toBody(), requestId: 'req-outage-1' }),
      });
    };
    await page.route(statusUrl, outage);
    await page.goto(appUrl('sandbox'));
    const box = page.getByRole('alert');
    await box.waitFor();
    const said = await box.innerText();
    expect(said).toContain('Something went wrong');
    expect(said).toContain(AppError.storeUnavailable().message);
    expect(said).toContain('Request id req-outage-1');
    // the rest of the page is there: only the part whose data failed says so
    expect(await page.getByRole('heading', { name: 'Sandbox', level: 1 }).isVisible()).toBe(true);
    await screenshot(page, 'details-data-failed-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'details-data-failed-phone');
    await page.setViewportSize(VIEWPORTS.desktop);
    // still failing: Try again asks again and says so again (the outage answered the second request
    // before the service comes back: the old box may still show while the retry is on its way)
    const before = refused;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => refused).toBe(before + 1);
    await box.waitFor();
    await page.unroute(statusUrl, outage);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('switch', { name: /Switch the sandbox/ }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(unexpected(503)).toEqual([]);
  });

  it('when a page waits for its data, then a loading line is shown until the answer comes', async () => {
    const statusUrl = `**/api/admin/apps/${app.streamId}/ivr-sandbox/status`;
    let let_go!: () => void;
    const held = new Promise<void>((r) => (let_go = r));
    const slow = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(statusUrl, slow);
    await page.goto(appUrl('sandbox'));
    // (the app's own record first, then the sandbox's status)
    const loading = page.locator('.loading', { hasText: 'Loading the sandbox…' });
    await loading.waitFor();
    expect(await loading.getAttribute('role')).toBe('status');
    expect(await page.getByRole('switch', { name: /Switch the sandbox/ }).count()).toBe(0);
    await screenshot(page, 'details-loading-desktop');
    let_go();
    await page.getByRole('switch', { name: /Switch the sandbox/ }).waitFor();
    expect(await loading.count()).toBe(0);
    await page.unroute(statusUrl, slow);
    expect(unexpected()).toEqual([]);
  });

  it('when an app that does not exist is opened, then the error box says so and leads back to the apps', async () => {
    await page.goto(`${gw.url}/console/apps/st-${randomUUID()}/agent`);
    const box = page.getByRole('alert');
    await box.waitFor();
    expect(await box.innerText()).toMatch(/No such app[\s\S]*not found/i);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to the apps' }).click();
    await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
    expect(unexpected()).toEqual([]);
  });

  it('when a connection, a call or a table that does not exist is opened, then the page says it is not found and offers no useless retry', async () => {
    for (const url of [
      `${gw.url}/console/connections/cn-${randomUUID()}`,
      appUrl(`calls/call-${randomUUID()}`),
      `${gw.url}/console/tables/no_such_table`,
    ]) {
      await page.goto(url);
      const box = page.getByRole('alert');
      await box.waitFor();
      expect(await box.innerText(), url).toMatch(/^Not found/);
      expect(await page.getByRole('button', { name: 'Try again' }).count(), url).toBe(0);
    }
    expect(unexpected(404)).toEqual([]);
  });

  it('when the history is filtered by user, session, channel or dates, then each filter leaves out what the others show, and the filters are kept in the URL', async () => {
    // Ann and Ben call today; Ann also chatted (rtm) an hour ago and called ten days ago (recorded as the webhook records)
    const callDay = dayOf(Date.now()); // the day the calls start: the test may run past midnight UTC
    for (const [from, said] of [
      [ANN, 'when are you open'],
      [BEN, 'book a table'],
    ] as const) {
      const call = new IvrCall(gw, app.webhookUrl, from);
      await call.start();
      await call.say(said);
    }
    const recorder = createHistoryComponent({
      sessionMetas: new LRUCache({ max: 1_000 }),
      store,
      apps: gw.gateway.apps,
      rateLimiters: rateLimitersOf(store),
    }).recorder;
    const longAgo = Date.parse(`${dayOf(Date.now() - 10 * DAY)}T12:00:00Z`);
    await recorder.record([
      ...ivrCall({
        botId: app.streamId,
        userId: 'u-ann',
        from: ANN,
        callId: 'chat-ann',
        channel: 'rtm',
        start: Date.now() - 3_600_000,
        turns: [{ caller: 'typed hello', bot: 'typed answer' }],
      }),
      ...ivrCall({
        botId: app.streamId,
        userId: 'u-ann',
        from: ANN,
        callId: 'call-ann-old',
        start: longAgo,
        turns: [{ caller: 'are you open at easter', bot: 'We are closed at easter.' }],
      }),
    ]);

    /** The sessions the list shows (the session of each "Open transcript" link), sorted; undefined while it loads. */
    const listed = async (): Promise<string[] | undefined> => {
      if ((await page.locator('.loading').count()) > 0) return undefined;
      if ((await page.getByText('No conversations match these filters.').count()) > 0) return [];
      const links = await page
        .getByTestId('history-calls')
        .getByRole('link', { name: /^Open transcript/ })
        .all();
      const hrefs = await Promise.all(links.map((l) => l.getAttribute('href')));
      return hrefs.map((h) => new URL(h ?? '', gw.url).searchParams.get('call') ?? '').sort();
    };
    const search = async (f: {
      user?: string;
      session?: string;
      channel?: string;
      from?: string;
      to?: string;
    }) => {
      await page.getByLabel('User (caller number or id)').fill(f.user ?? '');
      await page.getByLabel('Session id').fill(f.session ?? '');
      await page.getByLabel('Channel').selectOption(f.channel ?? 'ivr');
      await page.getByLabel('From (UTC day)').fill(f.from ?? '');
      await page.getByLabel('To (UTC day)').fill(f.to ?? '');
      // the list read after this is the search's own, not the one before it
      const answered = page.waitForResponse(
        (r) => r.url().includes('/getMessages') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Search' }).click();
      await answered;
      while ((await page.locator('.loading').count()) > 0)
        await page.locator('.loading').first().waitFor({ state: 'detached' });
    };
    const query = () => Object.fromEntries(new URL(page.url()).searchParams);

    await page.goto(appUrl('history'));
    await expect.poll(listed).toHaveLength(2);
    const today = await listed();

    await search({ user: ANN });
    await expect.poll(listed).toHaveLength(1);
    const [ann] = (await listed())!;
    expect(query()).toEqual({ userId: ANN, channelType: 'ivr' });
    await search({ user: BEN });
    await expect.poll(listed).toHaveLength(1);
    const [ben] = (await listed())!;
    expect([ann, ben].sort()).toEqual(today);
    expect(await page.getByTestId('history-calls').innerText()).toContain(BEN);
    expect(await page.getByTestId('history-calls').innerText()).not.toContain(ANN);

    await search({ session: ben });
    await expect.poll(listed).toEqual([ben]);
    expect(query()).toEqual({ sessionId: ben, channelType: 'ivr' });
    // Ann's calls and Ben's session: nothing is both
    await search({ user: ANN, session: ben! });
    await expect.poll(listed).toEqual([]);

    await search({ channel: 'rtm' });
    await expect.poll(listed).toEqual(['sess-chat-ann']);
    expect(query()).toEqual({ channelType: 'rtm' });
    await search({ channel: 'rtm', user: BEN });
    await expect.poll(listed).toEqual([]);

    const old = dayOf(longAgo);
    await search({ from: old, to: old });
    await expect.poll(listed).toEqual(['sess-call-ann-old']);
    expect(query()).toEqual({ channelType: 'ivr', dateFrom: old, dateTo: old });
    await search({ from: callDay, to: dayOf(Date.now()) });
    await expect.poll(listed).toEqual(today);
    await search({ user: BEN, from: old, to: old });
    await expect.poll(listed).toEqual([]);

    // the URL alone brings the filters and their list back
    await page.goto(
      `${appUrl('history')}?${new URLSearchParams({ userId: ANN, channelType: 'ivr', dateFrom: old, dateTo: old })}`,
    );
    await expect.poll(listed).toEqual(['sess-call-ann-old']);
    expect(await page.getByLabel('User (caller number or id)').inputValue()).toBe(ANN);
    expect(await page.getByLabel('From (UTC day)').inputValue()).toBe(old);
    expect(await page.getByLabel('To (UTC day)').inputValue()).toBe(old);
    expect(await page.getByLabel('Channel').inputValue()).toBe('ivr');
    // a transcript opened from it keeps them, shows the conversation of that day, and leads back to the same list
    await page.getByRole('link', { name: /^Open transcript/ }).click();
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('We are closed at easter.').waitFor();
    expect(query()).toEqual({
      userId: ANN,
      channelType: 'ivr',
      dateFrom: old,
      dateTo: old,
      call: 'sess-call-ann-old',
    });
    await transcript.getByRole('button', { name: 'Back to the list' }).click();
    await expect.poll(listed).toEqual(['sess-call-ann-old']);
    expect(query()).toEqual({ userId: ANN, channelType: 'ivr', dateFrom: old, dateTo: old });
    expect(unexpected()).toEqual([]);
  });

  it('when the IVR channel is switched off, then the operator confirms first: Cancel keeps it on, Switch off switches it off; and "Copy webhook URL" copies the URL', async () => {
    const enabled = async () =>
      (await gw.admin('GET', `/api/admin/apps/${app.streamId}/channels/ivr`)).body.enabled as boolean;
    await page.goto(appUrl());
    const off = page.getByRole('switch', { name: 'Switch the channel off' });
    await off.waitFor();
    expect(await off.getAttribute('aria-checked')).toBe('true');

    await page.evaluate(`navigator.clipboard.writeText('nothing yet')`);
    const webhookUrl = await page.getByTestId('webhook-url').innerText();
    expect(webhookUrl).toBe(`${gw.url}/ivr/hooks/${app.streamId}`);
    await page.getByRole('button', { name: 'Copy webhook URL' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(webhookUrl);

    const dialog = page.getByRole('dialog', { name: 'Switch the IVR channel of “Front desk” off?' });
    await off.click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      'Calls through the webhook are refused until it is switched on again.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await enabled()).toBe(true);
    expect(await off.getAttribute('aria-checked')).toBe('true');
    // Escape is a cancel too
    await off.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await enabled()).toBe(true);

    await off.click();
    await dialog.getByRole('button', { name: 'Switch off' }).click();
    const on = page.getByRole('switch', { name: 'Switch the channel on' });
    await on.waitFor();
    expect(await on.getAttribute('aria-checked')).toBe('false');
    expect(await enabled()).toBe(false);
    // and on again (no confirmation needed) for the tests below
    await on.click();
    await off.waitFor();
    expect(await enabled()).toBe(true);
    expect(unexpected()).toEqual([]);
  });

  it('when the agent has a node no rule leads to, then the diagram flags that node unreachable; and the editor numbers its lines and highlights the JSON', async () => {
    await page.goto(appUrl('agent'));
    await page.locator('.cm-content').waitFor();
    // line numbers: 1, 2, 3… beside the text, as many as the lines drawn
    const numbers = (await page.locator('.cm-lineNumbers .cm-gutterElement').allInnerTexts()).filter(
      (t) => t.trim() !== '',
    );
    const drawn = await page.locator('.cm-content .cm-line').count();
    expect(drawn).toBeGreaterThan(10);
    // (CodeMirror adds one hidden element sized for the widest number)
    expect(numbers.slice(-drawn)).toEqual(Array.from({ length: drawn }, (_, i) => String(i + 1)));
    // highlighting: string values and numbers are tokens, each of its own colour (the light theme leaves property names plain)
    const tokens = await page.evaluate<Array<[string, string]>>(
      `[...document.querySelectorAll('.cm-content .cm-line span')].map((s) => [s.textContent, getComputedStyle(s).color])`,
    );
    const colour = (text: string) => tokens.find(([t]) => t === text)?.[1];
    const plain = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('.cm-content')).color`,
    );
    expect(colour('"en"')).toBeDefined();
    expect(colour('0.5')).toBeDefined();
    expect(new Set([colour('"en"'), colour('0.5'), plain]).size).toBe(3);
    expect(colour('"welcome"')).toBe(colour('"en"'));

    const orphaned = structuredClone(FIXED_AGENT) as typeof FIXED_AGENT & {
      dialogs: { hours: { nodes: Record<string, unknown> } };
    };
    orphaned.dialogs.hours.nodes.orphan = { type: 'message', text: 'Nobody is led here.' };
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(JSON.stringify(orphaned, null, 2));
    const diagram = page.getByTestId('diagram');
    const orphan = diagram.locator('[data-node="orphan"]');
    await orphan.waitFor();
    expect(await orphan.getAttribute('class')).toMatch(/\bunreachable\b/);
    expect(await orphan.locator('.node-type').textContent()).toBe('message · unreachable');
    for (const id of ['hello', 'tell', 'bye', 'size', 'tooMany', 'done', 'sorry']) {
      expect(await diagram.locator(`[data-node="${id}"]`).getAttribute('class'), id).not.toMatch(
        /unreachable/,
      );
    }
    const hours = diagram.locator('figure').filter({ has: page.locator('[data-node="orphan"]') });
    expect(await hours.locator('figcaption').innerText()).toContain('1 unreachable');
    expect(await hours.locator('svg').getAttribute('aria-label')).toContain('unreachable: orphan');
    expect(await hours.locator('.as-text li').filter({ hasText: 'orphan' }).textContent()).toContain(
      'unreachable from the start',
    );
    expect(await diagram.locator('.node.unreachable').count()).toBe(1);
    expect(unexpected()).toEqual([]);
  });

  it('when the IVR settings are opened, then a field shows its help and its default as /openapi.json describes them', async () => {
    const doc = (await (await page.request.get(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody: {
              content: Record<
                string,
                { schema: { properties: Record<string, { description?: string; default?: unknown }> } }
              >;
            };
          }
        >
      >;
    };
    const fields =
      doc.paths['/api/admin/apps/{streamId}/ivr-settings']!.put!.requestBody.content['application/json']!
        .schema.properties;
    await page.goto(appUrl('ivr-settings'));
    for (const [name, label] of [
      ['retries', 'Retries'],
      ['dialect', 'Dialect'],
    ] as const) {
      const field = fields[name]!;
      expect(field.description, name).toBeTruthy();
      expect(field.default, name).toBeDefined();
      const control = page.getByLabel(label, { exact: true });
      const helpId = `f-${name}-help`;
      expect(await control.getAttribute('aria-describedby')).toContain(helpId);
      const help = (await page.locator(`#${helpId}`).innerText()).replace(/\s+/g, ' ');
      expect(help).toContain(field.description!.replace(/\s+/g, ' '));
      expect(help).toContain(`Default: ${String(field.default)}.`);
    }
    // the defaults are also what the fields hold before anything is chosen
    expect(await page.getByLabel('Retries', { exact: true }).getAttribute('placeholder')).toBe(
      String(fields.retries!.default),
    );
    expect(unexpected()).toEqual([]);
  });

  it('when a sandbox call is connected, then the page shows the line in use; switching the sandbox off asks first: Cancel keeps it on, Switch off switches it off', async () => {
    const sandbox = async () =>
      (await gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-sandbox/status`)).body as {
        enabled: boolean;
        linesInUse: number;
      };
    const line = (
      await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, {
        enabled: true,
        maxConcurrentCalls: 2,
      })
    ).body as { phoneNumber: string; pin: string; secret: string };
    await page.goto(appUrl('sandbox'));
    const inUse = page.getByTestId('sandbox-lines-in-use');
    expect(await inUse.innerText()).toBe('0 of 2');

    // a tester dials in, keys the PIN and secret, hears the welcome and stays on the line
    const from = '+15550003003';
    const callId = `sandbox-${randomUUID()}`;
    const sandboxUrl = `${gw.url}/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}`;
    const asked = await gw.submit(sandboxUrl, { from, callId });
    const attempt = /<var name="attempt" expr="'([^']+)'"/.exec(asked.xml)?.[1] ?? '';
    const connected = await gw.submit(
      `${sandboxUrl}?${new URLSearchParams({ step: 'login', callId, from })}`,
      { attempt, pin: line.pin, secret: line.secret },
    );
    const webhook = /<subdialog[^>]*src="([^"]+)"/.exec(connected.xml)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(webhook).toContain(`/ivr/hooks/${app.streamId}`);
    const call = new IvrCall(gw, webhook, from, callId);
    expect(spokenOf(await call.start())).toContain('Welcome to the front desk');
    expect((await sandbox()).linesInUse).toBe(1);
    await page.reload();
    await inUse.filter({ hasText: '1 of 2' }).waitFor();
    await screenshot(page, 'details-sandbox-line-in-use-desktop');

    // the tester hangs up: the line is free again
    await call.event('hangup');
    await page.reload();
    await inUse.filter({ hasText: '0 of 2' }).waitFor();

    const off = page.getByRole('switch', { name: 'Switch the sandbox off' });
    const dialog = page.getByRole('dialog', { name: 'Switch the sandbox of “Front desk” off?' });
    await off.click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`Its number ${line.phoneNumber} is released`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await sandbox()).enabled).toBe(true);
    expect(await off.getAttribute('aria-checked')).toBe('true');

    await off.click();
    await dialog.getByRole('button', { name: 'Switch off' }).click();
    await page.getByRole('switch', { name: 'Switch the sandbox on' }).waitFor();
    expect((await sandbox()).enabled).toBe(false);
    expect(await page.getByText('The sandbox is off.').count()).toBe(1);
    expect(await inUse.count()).toBe(0);
    await gw.docs.validateAll();
    expect(unexpected()).toEqual([]);
  });

  it('when a JSON suite is uploaded and run, then the progress shows a value part way, the results list each utterance with its expected and matched intent, and the CSV download holds the same rows', async () => {
    await page.goto(appUrl('test-runs'));
    await page.getByLabel('Suite name').fill('json-smoke');
    await page.getByLabel('Suite file (CSV or JSON)').setInputFiles({
      name: 'smoke.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ utterances: SUITE })),
    });
    await page.getByText(`${SUITE.length} utterances read.`).waitFor();
    await page.getByRole('button', { name: 'Upload the suite' }).click();
    await page.getByRole('button', { name: 'Start a run' }).waitFor();
    const stored = await gw.admin('GET', `/api/admin/apps/${app.streamId}/testsuites/json-smoke`);
    expect(stored.body.utterances).toEqual(SUITE);

    // the run's second checkpoint (four utterances scored) waits until the test lets it through: two are stored
    const runKeys = storeKeys.testRun(app.streamId, '');
    const checkpoint = store.hold((ops: WriteOp[]) =>
      ops.some(
        (op) =>
          op.op === 'hset' &&
          op.key.startsWith(runKeys) &&
          op.fields.ran === '4' &&
          op.fields.batches !== undefined,
      ),
    );
    await page.getByRole('button', { name: 'Start a run' }).click();
    await checkpoint.reached;
    const progress = page.getByTestId('run-progress');
    await expect
      .poll(async () => Number(await progress.getAttribute('value')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const partWay = Number(await progress.getAttribute('value'));
    expect(partWay).toBeLessThan(100);
    // two of seven: the service's percentage (28, rounded down), not a guess of the page's
    expect(partWay).toBe(Math.floor((2 * 100) / SUITE.length));
    expect(await page.getByTestId('run-percent').innerText()).toBe(`${partWay}%`);
    expect(await page.locator('label[for="run-progress"]').innerText()).toContain(
      `running · 2 of ${SUITE.length} utterances`,
    );
    await screenshot(page, 'details-run-part-way-desktop');
    checkpoint.release();
    await expect.poll(() => progress.getAttribute('value'), { timeout: 60_000 }).toBe('100');

    // the results, one row per utterance, in the suite's order
    const table = page.getByRole('group', { name: 'Results per utterance' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').all();
    expect(rows).toHaveLength(SUITE.length);
    const shown = await Promise.all(
      rows.map(async (r) => (await r.locator('td').allInnerTexts()).map((c) => c.trim())),
    );
    expect(shown.map(([utterance, expected]) => ({ utterance, intent: expected }))).toEqual(SUITE);

    // the download: the file the page read, with its header block, then the column row and the same rows
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the results (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = Papa.parse<string[]>(csv, { skipEmptyLines: false }).data;
    const head = lines.findIndex((l) => l[0] === 'Utterance');
    expect(head).toBeGreaterThan(0);
    const columns = lines[head]!;
    expect(columns.slice(0, 3)).toEqual(['Utterance', 'Expected Intent', 'Matched Intent']);
    const fileRows = lines.slice(head + 1).filter((l) => l.length === columns.length);
    expect(fileRows).toHaveLength(SUITE.length);
    const col = (name: string) => columns.indexOf(name);
    const noneIfEmpty = (s: string) => s.trim() || 'None';
    expect(
      fileRows.map((r) => [
        r[col('Utterance')],
        r[col('Expected Intent')],
        noneIfEmpty(r[col('Matched Intent')]!),
        r[col('Result Type')],
      ]),
    ).toEqual(
      shown.map(([utterance, expected, matched, , result]) => [utterance, expected, matched, result]),
    );
    // the agent knows these: most are matched as expected
    expect(fileRows.filter((r) => r[col('Result Type')] === 'TP').length).toBeGreaterThanOrEqual(4);
    expect(unexpected()).toEqual([]);
  });
});
