/**
 * Two things the service refuses or fails at, shown by the console in a real headless Chromium
 * against the real service: deleting an app while one of its test runs is in progress (the Apps
 * page says why and the app stays), and an agent upload whose training failed (the Agent page says
 * so and that the previous version still answers, which a call confirms).
 *
 * Both states are held in place through the store, as a slow or refusing Redis would: the run's
 * final write waits until the test lets it through (so the run is in progress for as long as the
 * test needs, whatever the machine's speed), and the write that would make the new agent live is
 * answered with a Redis error reply. No definition makes training fail on its own (validation
 * refuses every one that could), so a refused commit is the realistic failure left; production
 * code has no hook for either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { storeKeys, type WriteOp } from '../../../src/store/index.js';
import { GatedStore, writes } from '../../helpers/gated-store.js';
import { IvrCall } from '../../helpers/ivr-call.js';
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
import { FIXED_AGENT, SUITE_CSV } from './console-fixtures.js';

const run = browserAvailable();

describe.skipIf(!run)('the console and what the service refuses', () => {
  let gw: RunningGateway;
  let store: GatedStore;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  /** Does `step` with the page at the phone's size, then back at the desktop's. */
  const atPhoneSize = async (step: () => Promise<void>) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await step();
    await page.setViewportSize(VIEWPORTS.desktop);
  };
  const appUrl = (streamId: string, tab = '') => `${gw.url}/console/apps/${streamId}${tab ? `/${tab}` : ''}`;

  beforeAll(async () => {
    store = new GatedStore('console-refusals:');
    gw = await startGateway({ store });
    browser = await launchBrowser();
    ({ page, problems } = await watchedPage(await browser.newContext({ viewport: VIEWPORTS.desktop })));
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when an app is deleted while one of its test runs is in progress, then the Apps page says why it was not deleted and the app stays listed; after the run, it is deleted', async () => {
    const app = await setupIvrApp(gw, { agent: FIXED_AGENT, name: 'Busy desk' });
    // the run's last write (its end: status, result file) waits until the test lets it through
    const runScope = storeKeys.testRun(app.streamId, '');
    const end = store.hold((ops: WriteOp[]) =>
      ops.some(
        (op) =>
          op.op === 'hset' &&
          op.key.startsWith(runScope) &&
          op.fields.status !== undefined &&
          op.fields.status !== 'running',
      ),
    );

    await page.goto(appUrl(app.streamId, 'test-runs'));
    await page
      .getByLabel('Suite file (CSV or JSON)')
      .setInputFiles({ name: 'smoke.csv', mimeType: 'text/csv', buffer: Buffer.from(SUITE_CSV) });
    await page.getByText('7 utterances read.').waitFor();
    await page.getByRole('button', { name: 'Upload the suite' }).click();
    await page.getByRole('button', { name: 'Start a run' }).click();
    // every utterance was scored: the run is at its end, still in progress
    await end.reached;
    await page.getByTestId('run-progress').waitFor();
    expect(await store.smembers(storeKeys.testRunsActive())).toEqual([expect.stringContaining(app.streamId)]);

    await page.goto(`${gw.url}/console/`);
    await page.getByRole('button', { name: 'Delete Busy desk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Busy desk”?' });
    await dialog.getByRole('button', { name: 'Delete Busy desk' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(
      'Busy desk was not deleted: one of its test runs is in progress. Wait for it to finish, then delete again.',
    );
    // the service's own words
    expect(await refusal.innerText()).toContain(
      'A test run of this app is in progress: delete the app when it has ended',
    );
    expect(await page.getByRole('status').filter({ hasText: 'Deleted' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Busy desk' }).count()).toBe(1);
    expect((await gw.admin('GET', `/api/admin/apps/${app.streamId}`)).status).toBe(200);
    await screenshot(page, 'apps-delete-refused-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await atPhoneSize(() => screenshot(page, 'apps-delete-refused-phone'));

    // the run ends; the same deletion now goes through
    end.release();
    await expect.poll(() => store.smembers(storeKeys.testRunsActive()), { timeout: 30_000 }).toEqual([]);
    await page.getByRole('button', { name: 'Delete Busy desk' }).click();
    await dialog.getByRole('button', { name: 'Delete Busy desk' }).click();
    await page.getByText('Deleted Busy desk.').waitFor();
    await page.getByRole('link', { name: 'Busy desk' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(0);
    expect((await gw.admin('GET', `/api/admin/apps/${app.streamId}`)).status).toBe(404);
    expect(problems).toEqual([]);
  });

  it('when the training of a saved agent fails, then the Agent page says so and that the previous version still answers, and a call meets the previous version', async () => {
    const app: IvrApp = await setupIvrApp(gw, { agent: FIXED_AGENT, name: 'Help line' });
    const live = (await gw.admin('GET', `/api/admin/apps/${app.streamId}/agent/status`)).body as {
      liveVersion: string;
    };
    // the write that would make the new version live is refused, as a Redis out of memory answers
    const commit = store.refuse(
      writes(storeKeys.agentModel(app.streamId)),
      "OOM command not allowed when used memory > 'maxmemory'.",
    );

    const changed = structuredClone(FIXED_AGENT);
    changed.dialogs.hours.nodes.tell.text = 'We are open around the clock.';
    await page.goto(appUrl(app.streamId, 'agent'));
    await page
      .getByTestId('agent-status')
      .getByText(`Live: version ${live.liveVersion}`, { exact: false })
      .waitFor();
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(JSON.stringify(changed, null, 2));
    await page.getByRole('button', { name: 'Save the agent' }).click();
    await commit.reached;

    const status = page.getByTestId('agent-status');
    await status.getByText(/training failed/).waitFor({ timeout: 60_000 });
    const answer = (await gw.admin('GET', `/api/admin/apps/${app.streamId}/agent/status`)).body as {
      state: string;
      liveVersion: string;
      latestVersion: string;
      error: string;
    };
    expect(answer).toMatchObject({ state: 'failed', liveVersion: live.liveVersion });
    expect(answer.latestVersion).not.toBe(live.liveVersion);
    expect(await status.innerText()).toBe(
      `Version ${answer.latestVersion} was saved but its training failed. Turns use version ${live.liveVersion}.`,
    );
    const failure = page.getByRole('alert').filter({ hasText: 'The training failed' });
    expect(await failure.innerText()).toContain(answer.error);
    expect(answer.error).toBe('The intent model could not be trained; the previous agent stays live');
    await screenshot(page, 'agent-training-failed-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await atPhoneSize(() => screenshot(page, 'agent-training-failed-phone'));

    // opened again, the page still says so (the status is read, not remembered)
    await page.reload();
    await page
      .getByTestId('agent-status')
      .getByText(`Version ${answer.latestVersion} was saved but its training failed.`, { exact: false })
      .waitFor();
    // and a caller meets the previous version
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    const said = await call.say('when are you open');
    expect(said).toContain('We are open from nine to five.');
    expect(said).not.toContain('around the clock');
    await gw.docs.validateAll();
    expect(problems).toEqual([]);
  });
});
