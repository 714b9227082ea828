/**
 * The call inspector's pages (issue 27) in a real headless Chromium against the real service: a
 * call made from the console's web caller (one page) shows up live in the Calls list of another
 * page and its turns arrive there without a reload (the live feed over EventSource, authorised by
 * the console's session cookie); the Call page shows the transcript, the chart and each turn's
 * trace with its document, and also follows new turns; the history transcript links to the call.
 * Both pages pass axe at 1280x800 and 390x844 and are screenshotted. Every step checks that the
 * pages raised no CSP violation and no script error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../../helpers/test-gateway.js';
import { IvrCall } from '../../helpers/ivr-call.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  signIn,
  watchedPage,
} from './browser-kit.js';

const run = browserAvailable();
const FROM = '+15550004444';
const OTHERS = '+15550007777';

describe.skipIf(!run)('the call inspector in the console', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let context: BrowserContext;
  /** the web caller */
  let caller: Page;
  /** the inspector */
  let page: Page;
  const problems: string[] = [];
  let app: IvrApp;
  let callId = '';

  const base = () => `${gw.url}/console/apps/${app.streamId}`;
  const heard = async (prompt: string) => {
    await caller.getByTestId('last-prompt').filter({ hasText: prompt }).waitFor();
    await caller.locator('button:has-text("Say it"):not([disabled])').waitFor();
  };
  const say = async (text: string) => {
    await caller.getByLabel('What you say').fill(text);
    await caller.getByRole('button', { name: 'Say it' }).click();
  };
  /** Axe at both sizes and in the dark scheme, and a screenshot of each. */
  const checkBothSizes = async (name: string) => {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      expect(await seriousViolations(page), `${name} ${size}`).toEqual([]);
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width, `${name} ${size} fits the screen`).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `${name}-${size}`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page), `${name} dark`).toEqual([]);
    await screenshot(page, `${name}-desktop-dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  };
  /** Marks the inspector's document: a reload would lose the mark. */
  const markPage = () => page.evaluate('window.__sameDocument = true');
  const samePage = () => page.evaluate<boolean>('window.__sameDocument === true');

  beforeAll(async () => {
    store = new MemoryStore('call-inspector:');
    gw = await startGateway({ store });
    app = await setupIvrApp(gw, { settings: { confidenceThreshold: 70 } });
    // more calls of another caller than one page of the list holds
    for (let i = 0; i < 21; i++) {
      const c = new IvrCall(gw, app.webhookUrl, OTHERS);
      await c.start();
      await c.event('hangup');
    }
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const a = await watchedPage(context);
    const b = await watchedPage(context);
    caller = a.page;
    page = b.page;
    // one list for both pages: the arrays are read at the end of each test
    const collect = (from: string[]) => () => problems.push(...from.splice(0));
    afterEach(collect(a.problems));
    afterEach(collect(b.problems));
    await signIn(caller, gw.url, gw.config.adminToken);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      console.log(
        'the inspector showed:',
        problems,
        await page
          .locator('main')
          .innerText()
          .catch(() => ''),
      );
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when a call is made from the web caller, then the Calls page lists it as live and its turns arrive without a reload', async () => {
    await caller.goto(`${base()}/call`);
    await caller.getByLabel('the webhook directly').check();
    await caller.getByLabel('From').fill(FROM);
    await caller.getByLabel('Mode').selectOption('lenient');
    await caller.getByRole('button', { name: 'Call', exact: true }).click();
    await heard("Welcome to Luigi's");
    callId = await caller.getByTestId('call-id').innerText();
    // heard with less confidence than the app's threshold (70%), more than the browser's (50%): the agent's no-match
    await caller.getByLabel(/^Confidence/).fill('0.6');
    await say('book a table');
    // between dialogs the agent answers its no-match prompt and listens for an intent again
    await heard("Sorry, I didn't get that.");
    await expect
      .poll(
        async () =>
          (await gw.admin('GET', `/api/admin/apps/${app.streamId}/calls/${callId}`)).body.turns?.length,
      )
      .toBe(2);
    await caller.getByLabel(/^Confidence/).fill('0.9');
    await say('book a table');
    await heard('For how many people?');

    await page.goto(`${base()}/calls`);
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Calls', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    const row = page.locator(`tr[data-call-id="${callId}"]`);
    await row.waitFor();
    expect(await page.locator('tr[data-call-id]').first().getAttribute('data-call-id')).toBe(callId);
    expect(await row.getByTestId('outcome').innerText()).toBe('live');
    expect(await row.innerText()).toContain(FROM);
    await page.getByTestId('feed-state').filter({ hasText: 'Live' }).waitFor();
    const before = Number(await row.getByTestId('turns').innerText());
    expect(before).toBe(3);
    await markPage();
    await say('four');
    await heard('For which day?');
    await row
      .getByTestId('turns')
      .filter({ hasText: String(before + 1) })
      .waitFor();
    expect(await samePage()).toBe(true);
    await checkBothSizes('calls-list');
    expect(problems).toEqual([]);
  });

  it('when the list is filtered, then the filters are in the URL and "Load more" brings the next page', async () => {
    await page.getByLabel('Caller (from)').fill(OTHERS);
    await page.getByLabel('Outcome').selectOption('hungup');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(
      (u) => u.searchParams.get('from') === OTHERS && u.searchParams.get('outcome') === 'hungup',
    );
    await expect.poll(() => page.locator('tr[data-call-id]').count()).toBe(20);
    expect(await page.locator(`tr[data-call-id="${callId}"]`).count()).toBe(0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.locator('tr[data-call-id]').count()).toBe(21);
    await page.getByText('That is every call matching these filters still kept.').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // the URL alone brings the same list back
    await page.goto(`${base()}/calls?outcome=live&from=${encodeURIComponent(FROM)}`);
    await page.locator(`tr[data-call-id="${callId}"]`).waitFor();
    expect(await page.getByLabel('Outcome').inputValue()).toBe('live');
    await page.goto(`${base()}/calls?from=nobody`);
    await page.getByTestId('no-calls').filter({ hasText: 'No calls match these filters.' }).waitFor();
    expect(problems).toEqual([]);
  });

  it("when the live call's page is open, then a new turn appears without a reload, and a turn's panel shows its trace and document", async () => {
    await page.goto(`${base()}/calls`);
    await page.locator(`tr[data-call-id="${callId}"] a`).click();
    await page.getByRole('heading', { name: /^Call /, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/apps/${app.streamId}/calls/${callId}`);
    await page.getByTestId('feed-state').filter({ hasText: 'Live' }).waitFor();
    const panels = page.getByTestId('turn-panel');
    const before = await panels.count();
    expect(before).toBe(4);
    const bubbles = await page.getByTestId('call-bubbles').innerText();
    expect(bubbles).toContain('book a table');
    expect(bubbles).toContain('For how many people?');
    expect(bubbles).toContain('nomatch: below threshold');
    expect(bubbles).toMatch(/ASR confidence \d+% · input mode voice/);
    await markPage();
    await say('march third');
    await heard('');
    await expect.poll(() => panels.count()).toBe(before + 1);
    await page.getByTestId('call-bubbles').getByText('march third').waitFor();
    expect(await samePage()).toBe(true);

    const nomatch = panels.filter({ hasText: 'nomatch' }).first();
    await nomatch.locator('summary').click();
    expect(await nomatch.getByTestId('nomatch').innerText()).toContain(
      'the confidence was below the threshold',
    );
    expect(await nomatch.getByTestId('timing').innerText()).toMatch(
      /ms in all: Store [\d.]+ ms · Agent [\d.]+ ms · Model [\d.]+ ms · Render [\d.]+ ms/,
    );
    expect(await nomatch.getByTestId('request-params').innerText()).toMatch(/confidence\s+0\.6/);
    expect(await nomatch.getByTestId('node').innerText()).toContain('→');
    expect(await nomatch.innerText()).toContain(gw.config.instanceId);
    const doc = nomatch.getByTestId('document');
    expect(await doc.innerText()).toContain('<vxml');
    expect(await doc.innerText()).toContain('token=redacted');
    // indented, one element a line, and highlighted
    expect((await doc.innerText()).split('\n').length).toBeGreaterThan(20);
    expect((await doc.innerText()).match(/<\?xml /g)).toHaveLength(1);
    expect(await doc.locator('.tok-typeName').count()).toBeGreaterThan(10);
    // the service's schema check of the document as answered (its token redacted)
    await nomatch
      .getByTestId('document-marks')
      .filter({ hasText: 'Valid VoiceXML 2.1 (vxml.xsd)' })
      .waitFor();
    expect(await nomatch.getByTestId('document-marks').innerText()).toContain('Well-formed XML');
    // the chart, with its words and its table
    const chart = page.getByTestId('turn-chart');
    expect(await chart.locator('svg title').textContent()).toBe('Latency and ASR confidence per turn');
    expect(await chart.locator('svg desc').textContent()).toMatch(/^5 turns; the slowest took/);
    expect(await chart.getByTestId('turn-chart-table').locator('tbody tr').count()).toBe(5);
    await checkBothSizes('call-page');
    expect(problems).toEqual([]);
  });

  it('when the call ends and its history transcript is opened, then it links to the call page', async () => {
    await caller.getByRole('button', { name: 'Hang up' }).click();
    await caller.getByTestId('call-ended').waitFor();
    await page.goto(`${base()}/history?userId=${encodeURIComponent(callId)}`);
    await page
      .getByRole('link', { name: /^Open transcript/ })
      .first()
      .click();
    const link = page.getByRole('link', { name: `Open the call ${callId} in the inspector` });
    await link.waitFor();
    await link.click();
    await page.getByRole('heading', { name: /^Call /, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/apps/${app.streamId}/calls/${callId}`);
    await page.getByTestId('call-summary').getByText('hung up').waitFor();
    expect(await page.getByTestId('feed-state').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('when a turn fell back to the fallback dialog, then its panel is marked and says why', async () => {
    const call = new IvrCall(gw, app.webhookUrl, '+15550009999');
    await call.start();
    await call.say('banana');
    await page.goto(`${base()}/calls/${encodeURIComponent(call.callId)}`);
    await page.getByRole('heading', { name: /^Call /, level: 1 }).waitFor();
    const fell = page.getByTestId('turn-panel').filter({ has: page.getByTestId('fallback-badge') });
    await fell.first().waitFor();
    expect(await fell.count()).toBe(1);
    await fell.locator('summary').click();
    expect(await fell.getByTestId('fallback').innerText()).toMatch(
      /^the (utterance is out of scope|best intent's confidence was below the threshold).* \((out_of_scope|below_threshold)\)$/,
    );
    expect(problems).toEqual([]);
  });
});
