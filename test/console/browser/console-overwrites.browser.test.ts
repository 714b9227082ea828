/**
 * Where the console replaces or ends something the operator may not mean to, in a real headless
 * Chromium against the real service: defining a data table under a name that exists (its access
 * rules are kept), uploading a suite under a name that exists, adding a skill group under an id
 * that exists and clearing one sandbox lockout each ask first, naming what goes; Cancel changes
 * nothing. And the sandbox's PIN and secret, shown once, are masked until the operator shows them.
 * Every step also checks that the page raised no CSP violation and no script error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
import { importSkillGroup, startGateway, type RunningGateway } from '../../helpers/test-gateway.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchBrowser,
  screenshot,
  seriousViolations,
  watchedPage,
  signIn,
} from './browser-kit.js';
import { SUITE_CSV } from './console-fixtures.js';
import { WRONG_CREDENTIALS, sandboxLogin } from './sandbox-login.js';

const run = browserAvailable();

describe.skipIf(!run)('the console asks before it replaces or ends something', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let frontDesk = '';
  let backOffice = '';
  let sandbox = { phoneNumber: '', pin: '', secret: '' };

  const createApp = async (name: string) =>
    (await gw.admin('POST', '/api/admin/apps', { name })).body.streamId as string;
  const appUrl = (streamId: string, tab: string) => `${gw.url}/console/apps/${streamId}/${tab}`;
  const table = async (name: string) => (await gw.admin('GET', `/api/admin/tables/${name}`)).body;

  const login = (from: string, creds: { pin: string; secret: string }) =>
    sandboxLogin(gw.url, sandbox.phoneNumber, from, creds);
  const wrong = WRONG_CREDENTIALS;

  /** Fills the Define a table form: the name and one string column per name given. */
  async function fillTable(name: string, columns: string[]): Promise<void> {
    await page.goto(`${gw.url}/console/tables`);
    await page.getByLabel('Table name').fill(name);
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) await page.getByRole('button', { name: 'Add a column' }).click();
      await page
        .getByRole('group', { name: `Column ${i + 1}` })
        .getByLabel('Name', { exact: true })
        .fill(columns[i]!);
    }
  }

  beforeAll(async () => {
    store = new MemoryStore('console-overwrites:');
    // the number and the address stay open: only the callers' own lockouts are made here
    const open = { points: 100, durationS: 60, blockDurationS: 60 };
    gw = await startGateway({
      store,
      options: { sandbox: { limits: { numberSlow: open, numberLock: open, address: open } } },
    });
    frontDesk = await createApp('Front desk');
    backOffice = await createApp('Back office');
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.url });
    ({ page, problems } = await watchedPage(context));
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when a table that exists is defined again, then a confirmation names it and its access rules; Cancel changes nothing and confirming replaces its columns but keeps its access rules', async () => {
    const access = { [frontDesk]: { read: true, write: true }, [backOffice]: { read: true, write: false } };
    const put = await gw.admin('PUT', '/api/admin/tables/bookings', {
      columns: [
        { name: 'guest', type: 'string', required: true },
        { name: 'size', type: 'number' },
      ],
      access,
    });
    expect(put.status).toBe(200);
    const before = await table('bookings');

    await fillTable('bookings', ['guest', 'party']);
    await page.getByRole('button', { name: 'Define the table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redefine the table “bookings”?' });
    await dialog.waitFor();
    const said = await dialog.innerText();
    expect(said).toContain('replaces its columns');
    expect(said).toContain(
      'Its columns now: guest (string, required); size (number). After: guest (string); party (string).',
    );
    expect(said).toContain('Its access rules are kept: Front desk (read and write); Back office (read).');
    await screenshot(page, 'tables-redefine-confirm-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await table('bookings')).toEqual(before);

    await page.getByRole('button', { name: 'Define the table' }).click();
    await dialog.getByRole('button', { name: 'Redefine the table' }).click();
    await page.getByRole('heading', { name: 'bookings', level: 2 }).waitFor();
    await page.getByRole('cell', { name: 'party' }).waitFor();
    const after = await table('bookings');
    expect(after.columns).toMatchObject([
      { name: 'guest', type: 'string', required: false },
      { name: 'party', type: 'string' },
    ]);
    expect(after.access).toEqual(access);
    // the table's view names the apps its rules are for
    const rules = await page.locator('section[aria-labelledby="table-title"] li').allInnerTexts();
    expect(rules).toEqual(
      expect.arrayContaining([`Front desk ${frontDesk}: read and write`, `Back office ${backOffice}: read`]),
    );
    expect(problems).toEqual([]);
  });

  it('when a table whose access names a deleted app is defined again, then the confirmation says that rule is dropped and the others are kept', async () => {
    const spare = await createApp('Spare line');
    await gw.admin('PUT', '/api/admin/tables/leads', {
      columns: [{ name: 'phone', type: 'string' }],
      access: { [frontDesk]: { read: true, write: false }, [spare]: { read: true, write: true } },
    });
    expect((await gw.admin('DELETE', `/api/admin/apps/${spare}`)).status).toBe(204);

    await fillTable('leads', ['phone', 'note']);
    await page.getByRole('button', { name: 'Define the table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redefine the table “leads”?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`Access rules of deleted apps are dropped: ${spare}.`);
    await dialog.getByRole('button', { name: 'Redefine the table' }).click();
    await page.getByRole('cell', { name: 'note' }).waitFor();
    expect((await table('leads')).access).toEqual({ [frontDesk]: { read: true, write: false } });
    expect(problems).toEqual([]);
  });

  it('when a new table is defined, then no confirmation is asked and it has no access rules', async () => {
    await fillTable('callbacks', ['phone']);
    await page.getByRole('button', { name: 'Define the table' }).click();
    await page.getByRole('heading', { name: 'callbacks', level: 2 }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await table('callbacks')).toMatchObject({
      columns: [{ name: 'phone', type: 'string' }],
      access: {},
    });
    expect(problems).toEqual([]);
  });

  it('when a suite is uploaded under a name that exists, then a confirmation names it; Cancel keeps the old suite and confirming replaces it', async () => {
    const old = [
      { utterance: 'are you open', intent: 'Hours' },
      { utterance: 'book a table', intent: 'Booking' },
    ];
    expect(
      (await gw.admin('PUT', `/api/admin/apps/${frontDesk}/testsuites/smoke`, { utterances: old })).status,
    ).toBe(200);
    const suite = async () => (await gw.admin('GET', `/api/admin/apps/${frontDesk}/testsuites/smoke`)).body;

    await page.goto(appUrl(frontDesk, 'test-runs'));
    expect(await page.getByLabel('Suite name').inputValue()).toBe('smoke');
    await page
      .getByLabel('Suite file (CSV or JSON)')
      .setInputFiles({ name: 'smoke.csv', mimeType: 'text/csv', buffer: Buffer.from(SUITE_CSV) });
    await page.getByText('7 utterances read.').waitFor();
    await page.getByRole('button', { name: 'Upload the suite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace the suite “smoke”?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(
      /“smoke” exists, with 2 utterances \(changed .+\)\. Uploading replaces them with the 7 of this file\./,
    );
    await screenshot(page, 'suite-replace-confirm-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await suite()).toMatchObject({ utteranceCount: 2, utterances: old });
    expect(await page.getByRole('button', { name: 'Start a run' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Upload the suite' }).click();
    await dialog.getByRole('button', { name: 'Replace the suite' }).click();
    await page.getByRole('button', { name: 'Start a run' }).waitFor();
    const replaced = await suite();
    expect(replaced.utteranceCount).toBe(7);
    expect(replaced.utterances[0]).toEqual({ utterance: 'when are you open', intent: 'Hours' });
    expect(problems).toEqual([]);
  });

  it('when a suite is uploaded under a new name, then it is stored without a confirmation', async () => {
    await page.goto(appUrl(frontDesk, 'test-runs'));
    await page.getByLabel('Suite name').fill('regression');
    await page
      .getByLabel('Suite file (CSV or JSON)')
      .setInputFiles({ name: 'regression.csv', mimeType: 'text/csv', buffer: Buffer.from(SUITE_CSV) });
    await page.getByText('7 utterances read.').waitFor();
    await page.getByRole('button', { name: 'Upload the suite' }).click();
    await page.getByRole('button', { name: 'Start a run' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(
      (await gw.admin('GET', `/api/admin/apps/${frontDesk}/testsuites/regression`)).body.utteranceCount,
    ).toBe(7);
    expect(problems).toEqual([]);
  });

  it('when a skill group is added with an id that exists, then a confirmation names it; Cancel keeps it and confirming replaces it', async () => {
    await importSkillGroup(gw, frontDesk, 'sg-front', 'Front office');
    const groups = async () =>
      (await gw.admin('GET', `/api/admin/apps/${frontDesk}/skill-groups?accountId=acc-1&orgId=org-1`)).body
        .skillGroups as Array<{ _id: string; name: string }>;

    await page.goto(`${appUrl(frontDesk, 'skill-groups')}?accountId=acc-1&orgId=org-1`);
    await page.getByRole('cell', { name: 'Front office' }).waitFor();
    await page.getByLabel('Id', { exact: true }).fill('sg-front');
    await page.getByLabel('Name', { exact: true }).fill('Reception');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace the skill group “sg-front”?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      'A skill group with this id exists: “Front office”, ACTIVE, with 0 skills. Adding replaces it with “Reception”, with no skills.',
    );
    await screenshot(page, 'skill-group-replace-confirm-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await groups()).map((g) => [g._id, g.name])).toEqual([['sg-front', 'Front office']]);

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByRole('button', { name: 'Replace the group' }).click();
    await page.getByRole('cell', { name: 'Reception' }).waitFor();
    expect((await groups()).map((g) => [g._id, g.name])).toEqual([['sg-front', 'Reception']]);

    // a new id is added without a question
    await page.getByLabel('Id', { exact: true }).fill('sg-back');
    await page.getByLabel('Name', { exact: true }).fill('Back office');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('cell', { name: 'Back office' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await groups()).map((g) => g._id).sort()).toEqual(['sg-back', 'sg-front']);
    expect(problems).toEqual([]);
  });

  it('when one lockout is cleared, then a confirmation names the caller; Cancel keeps it and confirming ends it', async () => {
    sandbox = (
      await gw.admin('PUT', `/api/admin/apps/${backOffice}/ivr-sandbox`, {
        enabled: true,
        maxConcurrentCalls: 5,
      })
    ).body;
    const from = '+15550907001';
    for (let i = 0; i < 5; i++) await login(from, wrong);
    expect(await login(from, { pin: sandbox.pin, secret: sandbox.secret })).toBe('locked');
    const lockouts = async () =>
      (await gw.admin('GET', `/api/admin/apps/${backOffice}/ivr-sandbox/lockouts`)).body
        .lockouts as unknown[];
    expect(await lockouts()).toHaveLength(1);

    await page.goto(appUrl(backOffice, 'sandbox'));
    const list = page.getByTestId('sandbox-lockouts');
    const row = list.getByRole('row', { name: new RegExp(`\\${from} at `) });
    await row.getByRole('button', { name: /^Clear / }).click();
    const dialog = page.getByRole('dialog', {
      name: new RegExp(`^Clear the lockout of \\${from} at \\S+\\?$`),
    });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(
      /Locked until .+ after 5 wrong entries\. Cleared, the PIN may be tried again from there at once .+ a cleared lockout cannot be put back\./,
    );
    await screenshot(page, 'lockout-clear-confirm-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await lockouts()).toHaveLength(1);
    expect(await row.count()).toBe(1);

    await row.getByRole('button', { name: /^Clear / }).click();
    await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
    await list.getByText('Cleared 1 lockout.').waitFor();
    expect(await lockouts()).toEqual([]);
    expect(await login(from, { pin: sandbox.pin, secret: sandbox.secret })).toBe('connected');
    expect(problems).toEqual([]);
  });

  it('when the sandbox is switched on, then its PIN and secret are masked, the Show buttons reveal them and the revealed ones let a caller in', async () => {
    await page.goto(appUrl(frontDesk, 'sandbox'));
    await page.getByRole('switch', { name: 'Switch the sandbox on' }).click();
    const region = page.getByRole('region', { name: 'PIN and secret' });
    await region.waitFor();
    const phoneNumber = await page.getByTestId('sandbox-number').innerText();
    const showPin = region.getByRole('button', { name: 'Show PIN' });
    const showSecret = region.getByRole('button', { name: 'Show secret' });
    // masked, the length hidden too: both show the same mask
    const masked = {
      pin: await page.getByTestId('sandbox-pin').innerText(),
      secret: await page.getByTestId('sandbox-secret').innerText(),
    };
    expect(masked.pin).toMatch(/^•{8}\s*hidden$/);
    expect(masked.secret).toBe(masked.pin);
    expect(await showPin.getAttribute('aria-pressed')).toBe('false');
    expect(await showSecret.getAttribute('aria-pressed')).toBe('false');
    expect(await region.innerText()).toContain('Once you hide them, the service cannot show them again.');
    // the copy buttons copy the values without showing them
    const copied = async (label: string) => {
      await region.getByRole('button', { name: label }).click();
      return String(await page.evaluate('navigator.clipboard.readText()'));
    };
    const pin = await copied('Copy PIN');
    const secret = await copied('Copy secret');
    expect(pin).toMatch(/^\d{6}$/);
    expect(secret).toMatch(/^\d{8}$/);
    expect(await region.innerText()).not.toContain(pin);
    expect(await region.innerText()).not.toContain(secret);
    await screenshot(page, 'sandbox-credentials-masked-desktop');
    expect(await seriousViolations(page)).toEqual([]);

    await showPin.click();
    expect(await showPin.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('sandbox-pin').innerText()).toBe(pin);
    expect(await page.getByTestId('sandbox-secret').innerText()).toBe(masked.secret);
    await showSecret.click();
    expect(await page.getByTestId('sandbox-secret').innerText()).toBe(secret);
    await screenshot(page, 'sandbox-credentials-shown-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await showPin.click();
    expect(await showPin.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('sandbox-pin').innerText()).toBe(masked.pin);

    sandbox = { phoneNumber, pin, secret };
    expect(await login('+15550907002', { pin, secret })).toBe('connected');
    expect(await login('+15550907003', wrong)).toBe('checked');
    expect(problems).toEqual([]);
  });
});
