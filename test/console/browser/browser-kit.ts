/**
 * A real headless Chromium for the console suites, driven by playwright-core with the system's
 * `chromium` (Debian's package; CHROMIUM_PATH overrides the path). When it is missing the suites
 * skip with a loud banner, unless REQUIRE_BROWSER=1 (CI), which makes a missing browser a failure.
 * Screenshots go to test-artifacts/console-screenshots/ (kept out of git by .gitignore).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(process.cwd(), 'test-artifacts', 'console-screenshots');
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Whether the browser suites run; prints the banner (or throws under REQUIRE_BROWSER=1) when not. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  const line = '!'.repeat(78);
  process.stderr.write(
    `\n${line}\n!! SKIPPING the operator console browser suites: ${reason}.\n!! Set REQUIRE_BROWSER=1 to make this a failure.\n${line}\n\n`,
  );
  return false;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

export interface WatchedPage {
  page: Page;
  /** CSP violations, page errors and console errors seen so far. */
  problems: string[];
}

/** A page that records CSP violations, uncaught errors and console errors (a test asserts none). */
export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text()))
      problems.push(`console: ${msg.text()}`);
  });
  await page.exposeFunction('__cspViolation', (what: string) => problems.push(`csp: ${what}`));
  // page-side code as text: the test project has no DOM types
  await page.addInitScript(
    `document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' ' + e.blockedURI));`,
  );
  return { page, problems };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core (WCAG 2.x A and AA rules) on the page; answers the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // evaluated through the DevTools protocol, which the page's CSP does not govern; no inline script is added
  await page.evaluate(axeSource);
  const result = await page.evaluate<{ violations: AxeViolation[] }>(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })`,
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Signs the page in to the console at `baseUrl` with the admin token and waits for the Apps page. */
export async function signIn(page: Page, baseUrl: string, adminToken: string): Promise<void> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel('Admin token').fill(adminToken);
  await page.getByRole('button', { name: 'Sign in with the token' }).click();
  await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
}
