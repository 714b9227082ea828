/**
 * The test-run page tells the truth about rejection, in a real headless Chromium against the real
 * service and the agent's own recognizer: after a run of in-scope and out-of-scope (None) utterances
 * it shows in-scope accuracy beside the false-accept rate, the confusion matrix with None as a
 * class, and the reliability chart with its table, each the figure the status answer carries; it
 * is axe-clean in light and dark, on a desktop and a phone. A run stored before these figures
 * existed still opens, says so, and keeps the matrix read from its file.
 *
 * What the recognizer decides is not fixed here (it is being replaced): the page is checked against
 * the status answer it read, and the matrix's rows against the suite, which fixes what was expected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MemoryStore, storeKeys } from '../../../src/store/index.js';
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
import { FIXED_AGENT } from './console-fixtures.js';

const run = browserAvailable();

const SUITE = [
  { utterance: 'when are you open', intent: 'Hours' },
  { utterance: 'what are your opening hours today', intent: 'Hours' },
  { utterance: 'book a table for four', intent: 'Booking' },
  { utterance: 'can i reserve a table tonight', intent: 'Booking' },
  { utterance: 'cancel my credit card', intent: 'None' },
  { utterance: 'who won the football game', intent: 'None' },
  { utterance: 'i would like to order a pizza', intent: 'None' },
  { utterance: 'the weather is nice', intent: 'None' },
];

interface Bin {
  from: number;
  count: number;
  meanConfidence: number | null;
  accuracy: number | null;
}
interface StatusResult {
  falseAcceptRate: number | null;
  inScopeAccuracy: number | null;
  results: Record<string, number>;
  confusionMatrix: { labels: string[]; matrix: number[][] };
  calibration: { ece: number | null; bins: Bin[] };
}

const share = (v: number | null): string => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);
const two = (v: number | null): string => (v === null ? '–' : v.toFixed(2));

/** The matrix as the page shows it: column labels, then each row's label and cells. */
async function shownMatrix(
  page: Page,
): Promise<{ columns: string[]; rows: Array<{ label: string; cells: number[] }> }> {
  const table = page.getByTestId('confusion-matrix');
  const columns = (await table.locator('thead th').allInnerTexts()).slice(1).map((s) => s.trim());
  const rows = await Promise.all(
    (await table.locator('tbody tr').all()).map(async (tr) => ({
      label: (await tr.locator('th').innerText()).trim(),
      cells: (await tr.locator('td').allInnerTexts()).map((s) => Number(s.trim())),
    })),
  );
  return { columns, rows };
}

describe.skipIf(!run)('the test-run page and rejection', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let app: IvrApp;
  let runId = '';
  let result: StatusResult;

  beforeAll(async () => {
    store = new MemoryStore('console-rejection:');
    gw = await startGateway({
      store,
      options: { rateLimits: { botApi: { perMinute: 10_000, perHour: 100_000 } } },
    });
    app = await setupIvrApp(gw, { agent: FIXED_AGENT, name: 'Front desk' });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    ({ page, problems } = await watchedPage(context));
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when a suite with out-of-scope utterances is run, then the page shows the false-accept rate beside accuracy, the matrix with None and the reliability chart the status gives', async () => {
    await page.goto(`${gw.url}/console/apps/${app.streamId}/test-runs`);
    await page.getByLabel('Suite name').fill('rejection');
    await page.getByLabel('Suite file (CSV or JSON)').setInputFiles({
      name: 'rejection.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ utterances: SUITE })),
    });
    await page.getByText(`${SUITE.length} utterances read.`).waitFor();
    await page.getByRole('button', { name: 'Upload the suite' }).click();
    // the status answer the page reads once the run has ended
    const completed = page.waitForResponse(
      async (res) =>
        res.url().includes('/status') &&
        res.status() === 200 &&
        ((await res.json()) as { status: string }).status === 'completed',
      { timeout: 60_000 },
    );
    await page.getByRole('button', { name: 'Start a run' }).click();
    const body = (await (await completed).json()) as { _id: string; result: StatusResult };
    runId = body._id;
    result = body.result;
    await page.getByTestId('rejection-facts').waitFor({ timeout: 30_000 });

    // the figures, each with the counts behind it
    const c = result.results;
    expect(c.outOfScopeCount).toBe(4);
    expect(c.inScopeCount).toBe(4);
    const accuracy = await page.getByTestId('in-scope-accuracy').innerText();
    const falseAccepts = await page.getByTestId('false-accept-rate').innerText();
    expect(accuracy).toContain(share(result.inScopeAccuracy));
    expect(accuracy).toContain(`${c.inScopeCorrectCount} of 4`);
    expect(falseAccepts).toContain(share(result.falseAcceptRate));
    expect(falseAccepts).toContain(`${c.falseAcceptCount} of 4`);
    const facts = await page.getByTestId('rejection-facts').locator('dt').allInnerTexts();
    expect(facts.slice(0, 2)).toEqual(['In-scope accuracy', 'False-accept rate']);

    // the matrix: None a class, last; each row adds up to what the suite expected of it
    const m = await shownMatrix(page);
    expect(m.columns).toEqual(result.confusionMatrix.labels);
    expect(m.columns.at(-1)).toBe('None');
    expect(m.rows.map((r) => r.label)).toEqual(result.confusionMatrix.labels);
    expect(m.rows.map((r) => r.cells)).toEqual(result.confusionMatrix.matrix);
    const expectedOf = (label: string) => SUITE.filter((u) => u.intent === label).length;
    for (const r of m.rows)
      expect(
        r.cells.reduce((a, b) => a + b, 0),
        r.label,
      ).toBe(expectedOf(r.label));
    const noneRow = m.rows.find((r) => r.label === 'None')!;
    expect(noneRow.cells.slice(0, -1).reduce((a, b) => a + b, 0)).toBe(c.falseAcceptCount);

    // per utterance, None as a class: the false accepts are the rows that say so
    const perUtterance = page.getByRole('group', { name: 'Results per utterance' });
    expect(await perUtterance.locator('thead th').allInnerTexts()).toContain('Outcome');
    const outcomes = (await perUtterance.locator('tbody tr td:last-child').allInnerTexts()).map((t) =>
      t.trim(),
    );
    expect(outcomes).toHaveLength(SUITE.length);
    expect(outcomes.filter((t) => t === 'False Accept')).toHaveLength(c.falseAcceptCount!);
    expect(outcomes.filter((t) => t === 'False Reject')).toHaveLength(c.falseRejectCount!);

    // the reliability chart and its table: the ten bins of the status answer
    const chart = page.getByTestId('reliability-chart');
    expect(await page.getByTestId('run-ece').innerText()).toBe(
      result.calibration.ece === null ? '–' : result.calibration.ece.toFixed(3),
    );
    const used = result.calibration.bins.filter((b) => b.count > 0);
    expect(used.reduce((n, b) => n + b.count, 0)).toBe(SUITE.length);
    expect(await chart.locator('rect.bar.accuracy').count()).toBe(used.length);
    expect(await chart.locator('circle.mean').count()).toBe(used.length);
    const label = await chart.locator('svg').getAttribute('aria-label');
    for (const b of used) expect(label).toContain(`${b.count} utterance`);
    const tableRows = await page.getByTestId('calibration-table').locator('tbody tr').all();
    expect(tableRows).toHaveLength(10);
    const cells = await Promise.all(
      tableRows.map(async (tr) => (await tr.locator('td').allInnerTexts()).map((s) => s.trim())),
    );
    expect(cells).toEqual(
      result.calibration.bins.map((b) => [String(b.count), two(b.meanConfidence), two(b.accuracy)]),
    );

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        await screenshot(page, `rejection-run-${size}-${scheme}`);
        expect(await seriousViolations(page), `${size} ${scheme}`).toEqual([]);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(VIEWPORTS.desktop);
    // on a phone the matrix scrolls inside its own box, never the page
    await page.setViewportSize(VIEWPORTS.phone);
    const widths = await page.evaluate<{ doc: number; view: number }>(
      `({ doc: document.documentElement.scrollWidth, view: window.innerWidth })`,
    );
    expect(widths.doc).toBeLessThanOrEqual(widths.view);
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(problems).toEqual([]);
  });

  it('when the run was stored before the rejection figures existed, then the page says so and still shows the matrix from its file', async () => {
    expect(runId).not.toBe('');
    await store.atomic([{ op: 'hdel', key: storeKeys.testRun(app.streamId, runId), fields: ['analysis'] }]);
    await page.goto(`${gw.url}/console/apps/${app.streamId}/test-runs?suite=rejection&run=${runId}`);
    await page
      .getByText('This run was stored before runs reported out-of-scope figures')
      .waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('rejection-facts').count()).toBe(0);
    expect(await page.getByTestId('reliability-chart').count()).toBe(0);
    const m = await shownMatrix(page);
    // read from the CSV: every expected intent is there, None included
    expect(m.rows.map((r) => r.label)).toEqual(expect.arrayContaining(['Hours', 'Booking', 'None']));
    const total = m.rows.flatMap((r) => r.cells).reduce((a, b) => a + b, 0);
    expect(total).toBe(SUITE.length);
    await screenshot(page, 'rejection-older-run-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
