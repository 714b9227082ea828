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
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { createHistoryComponent } from '../../../src/history/index.js';
import { AppError } from '../../../src/platform/index.js';
import { rateLimitersOf } from '../../../src/store/index.js';
import { GatedStore } from '../../helpers/gated-store.js';
import { IvrCall } from '../../helpers/ivr-call.js';
import { ivrCall } from '../../history/ivr-call.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../../helpers/test-gateway.js';
import { VIEWPORTS, browserAvailable, launchBrowser, screenshot, seriousViolations, signIn, watchedPage } from './browser-kit.js';
import { FIXED_AGENT } from './console-fixtures.js';

const run = browserAvailable();
const DAY = 86_400_000;
/** The UTC day of a time, as the history filters take it. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** Two callers, each with a call today. */
const ANN = '+15550001001';
const BEN = '+15550002002';

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
  const unexpected = (status?: number) => problems.filter((p) => status === undefined || !p.includes(`status of ${status}`));

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
    if (ctx.task.result?.state === 'fail') console.log('the page showed:', problems, await page.locator('main').innerText().catch(() => ''));
    problems.splice(0);
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
    const gone = (route: Route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
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
    const outage = (route: Route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ ...AppError.storeUnavailable().toBody(), requestId: 'req-outage-1' }) });
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
    // still failing: Try again asks again and says so again
    await page.getByRole('button', { name: 'Try again' }).click();
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
    const loading = page.locator('.loading');
    await loading.waitFor();
    expect(await loading.innerText()).toContain('Loading the sandbox…');
    expect(await loading.getAttribute('role')).toBe('status');
    expect(await page.getByRole('switch', { name: /Switch the sandbox/ }).count()).toBe(0);
    await screenshot(page, 'details-loading-desktop');
    let_go();
    await page.getByRole('switch', { name: /Switch the sandbox/ }).waitFor();
    expect(await loading.count()).toBe(0);
    await page.unroute(statusUrl, slow);
    expect(unexpected()).toEqual([]);
  });

  it('when an app that does not exist is opened, then the error box says so and offers to try again', async () => {
    await page.goto(`${gw.url}/console/apps/st-${randomUUID()}/agent`);
    const box = page.getByRole('alert');
    await box.waitFor();
    expect(await box.innerText()).toMatch(/not found/i);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    expect(unexpected()).toEqual([]);
  });

  it('when the history is filtered by user, session, channel or dates, then each filter leaves out what the others show, and the filters are kept in the URL', async () => {
    // Ann and Ben call today; Ann also chatted (rtm) an hour ago and called ten days ago (recorded as the webhook records)
    for (const [from, said] of [[ANN, 'when are you open'], [BEN, 'book a table']] as const) {
      const call = new IvrCall(gw, app.webhookUrl, from);
      await call.start();
      await call.say(said);
    }
    const recorder = createHistoryComponent({ store, apps: gw.gateway.apps, rateLimiters: rateLimitersOf(store) }).recorder;
    const longAgo = Date.parse(`${dayOf(Date.now() - 10 * DAY)}T12:00:00Z`);
    await recorder.record([
      ...ivrCall({ botId: app.streamId, userId: 'u-ann', from: ANN, callId: 'chat-ann', channel: 'rtm', start: Date.now() - 3_600_000, turns: [{ caller: 'typed hello', bot: 'typed answer' }] }),
      ...ivrCall({ botId: app.streamId, userId: 'u-ann', from: ANN, callId: 'call-ann-old', start: longAgo, turns: [{ caller: 'are you open at easter', bot: 'We are closed at easter.' }] }),
    ]);

    /** The sessions the list shows (the session of each "Open transcript" link), sorted. */
    const listed = async (): Promise<string[]> => {
      if ((await page.locator('.loading').count()) > 0) return ['(loading)'];
      if ((await page.getByText('No conversations match these filters.').count()) > 0) return [];
      const links = await page.getByTestId('history-calls').getByRole('link', { name: /^Open transcript/ }).all();
      const hrefs = await Promise.all(links.map((l) => l.getAttribute('href')));
      return hrefs.map((h) => new URL(h ?? '', gw.url).searchParams.get('call') ?? '').sort();
    };
    const search = async (f: { user?: string; session?: string; channel?: string; from?: string; to?: string }) => {
      await page.getByLabel('User (caller number or id)').fill(f.user ?? '');
      await page.getByLabel('Session id').fill(f.session ?? '');
      await page.getByLabel('Channel').selectOption(f.channel ?? 'ivr');
      await page.getByLabel('From (UTC day)').fill(f.from ?? '');
      await page.getByLabel('To (UTC day)').fill(f.to ?? '');
      await page.getByRole('button', { name: 'Search' }).click();
    };
    const query = () => Object.fromEntries(new URL(page.url()).searchParams);

    await page.goto(appUrl('history'));
    await expect.poll(listed).toHaveLength(2);
    const today = await listed();

    await search({ user: ANN });
    await expect.poll(listed).toHaveLength(1);
    const [ann] = await listed();
    expect(query()).toEqual({ userId: ANN, channelType: 'ivr' });
    await search({ user: BEN });
    await expect.poll(listed).not.toEqual([ann]);
    const [ben] = await listed();
    expect(await listed()).toHaveLength(1);
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
    await search({ from: dayOf(Date.now()), to: dayOf(Date.now()) });
    await expect.poll(listed).toEqual(today);
    await search({ user: BEN, from: old, to: old });
    await expect.poll(listed).toEqual([]);

    // the URL alone brings the filters and their list back
    await page.goto(`${appUrl('history')}?${new URLSearchParams({ userId: ANN, channelType: 'ivr', dateFrom: old, dateTo: old })}`);
    await expect.poll(listed).toEqual(['sess-call-ann-old']);
    expect(await page.getByLabel('User (caller number or id)').inputValue()).toBe(ANN);
    expect(await page.getByLabel('From (UTC day)').inputValue()).toBe(old);
    expect(await page.getByLabel('To (UTC day)').inputValue()).toBe(old);
    expect(await page.getByLabel('Channel').inputValue()).toBe('ivr');
    // a transcript opened from it keeps them, shows the conversation of that day, and leads back to the same list
    await page.getByRole('link', { name: /^Open transcript/ }).click();
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('We are closed at easter.').waitFor();
    expect(query()).toEqual({ userId: ANN, channelType: 'ivr', dateFrom: old, dateTo: old, call: 'sess-call-ann-old' });
    await transcript.getByRole('button', { name: 'Back to the list' }).click();
    await expect.poll(listed).toEqual(['sess-call-ann-old']);
    expect(query()).toEqual({ userId: ANN, channelType: 'ivr', dateFrom: old, dateTo: old });
    expect(unexpected()).toEqual([]);
  });
});
