/**
 * The call page shows what the agent made of a recognition (issue 37) in a turn's panel, in a real
 * headless Chromium against the real service: a call that asks "Did you want to refill a
 * prescription?" and hears yes, then one that falls back, made with the test IVR browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../../helpers/test-gateway.js';
import { IvrCall } from '../../helpers/ivr-call.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  seriousViolations,
  signIn,
  watchedPage,
} from './browser-kit.js';

const end = (text: string) => ({ start: 'say', nodes: { say: { type: 'end', text } } });
const pharmacy = {
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  intents: [
    {
      name: 'RefillPrescription',
      dialog: 'refill',
      confirm: 'always',
      utterances: ['refill my prescription', 'i need a refill'],
    },
  ],
  dialogs: {
    welcome: { start: 'hi', nodes: { hi: { type: 'message', text: 'How can I help?' } } },
    fallback: {
      start: 'sorry',
      nodes: { sorry: { type: 'message', text: 'Sorry, I can only refill prescriptions.' } },
    },
    refill: end('Refilling your prescription.'),
  },
};

describe.skipIf(!browserAvailable())('the decision in a turn panel of the call page', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let app: IvrApp;

  beforeAll(async () => {
    store = new MemoryStore('turn-decision:');
    gw = await startGateway({ store });
    // transcription on: the intent is the recognizer's, not the browser grammar's
    app = await setupIvrApp(gw, { agent: pharmacy, settings: { transcription: { enabled: true } } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const watched = await watchedPage(context);
    page = watched.page;
    problems = watched.problems;
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  const panel = (turn: number) =>
    page
      .getByTestId('turn-panel')
      .filter({ has: page.locator('.turn-no', { hasText: new RegExp(`^Turn ${turn}$`) }) });

  it('when a turn asked, was answered or fell back, then its panel says the decision and why', async () => {
    const confirmed = new IvrCall(gw, app.webhookUrl);
    await confirmed.start();
    await confirmed.say('refill my prescription');
    expect(confirmed.last).toContain('Did you want to refill a prescription?');
    await confirmed.say('yes');
    const fallback = new IvrCall(gw, app.webhookUrl);
    await fallback.start();
    await fallback.say('xyzzy plugh');

    await page.goto(`${gw.url}/console/apps/${app.streamId}/calls/${confirmed.callId}`);
    await page.getByRole('heading', { name: /^Call /, level: 1 }).waitFor();
    await panel(1).locator('summary').click();
    expect(await panel(1).getByTestId('decision').innerText()).toBe(
      'confirm: confirm RefillPrescription (always asked)',
    );
    await panel(2).locator('summary').click();
    expect(await panel(2).getByTestId('decision').innerText()).toBe('accept: RefillPrescription confirmed');

    await page.goto(`${gw.url}/console/apps/${app.streamId}/calls/${fallback.callId}`);
    await page.getByRole('heading', { name: /^Call /, level: 1 }).waitFor();
    await panel(1).locator('summary').click();
    expect(await panel(1).getByTestId('decision').innerText()).toMatch(
      /^reject: (out of scope|below threshold)$/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
