/**
 * The web caller (issue 28) in a real headless Chromium against the real service: the console's
 * Call panel runs the same VoiceXML interpreter as the terminal caller, in the page. A sandbox call
 * logs in on the keypad and talks to the demo agent to its end; a direct webhook call in strict-w3c
 * mode hears an utterance outside the grammar as a nomatch and one inside fill the field; silence
 * twice reaches the max-retries path; with sound on, each prompt goes to speechSynthesis.speak
 * (recorded by wrapping it, since headless Chromium has no voices). Every step checks that the page
 * raised no CSP violation and no script error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MemoryStore } from '../../../src/store/index.js';
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

const run = browserAvailable();

/** Records what the page hands to speechSynthesis.speak (page-side code as text: no DOM types here). */
const RECORD_SPEECH = `
  window.__spoken = [];
  if (window.speechSynthesis) {
    const speak = window.speechSynthesis.speak.bind(window.speechSynthesis);
    window.speechSynthesis.speak = (u) => { window.__spoken.push(u.text); try { speak(u); } catch (e) { /* no voices */ } };
  }
`;

/**
 * A stand-in for the browser's speech engine (an outside system; headless Chromium has no voices):
 * an utterance "plays" from speak() until cancel(), which is counted.
 */
/** A stand-in for the browser's speech recognizer: hears window.__nextUtterance (empty: no speech). */
const FAKE_RECOGNIZER = `
  window.__nextUtterance = '';
  window.SpeechRecognition = class {
    constructor() { this.lang = ''; this.onresult = null; this.onerror = null; this.onend = null; }
    start() {
      window.__recognizerLang = this.lang;
      setTimeout(() => {
        const said = window.__nextUtterance;
        if (said) this.onresult && this.onresult({ results: [[{ transcript: said, confidence: 0.77 }]] });
        else this.onerror && this.onerror({ error: 'no-speech' });
        this.onend && this.onend();
      }, 30);
    }
    stop() {}
  };
`;

const FAKE_SPEECH_ENGINE = `
  window.__spoken = [];
  window.__cancelled = 0;
  let playing = false;
  Object.defineProperty(window.speechSynthesis, 'speaking', { get: () => playing });
  Object.defineProperty(window.speechSynthesis, 'pending', { get: () => false });
  window.speechSynthesis.speak = (u) => { window.__spoken.push(u.text); playing = true; };
  window.speechSynthesis.cancel = () => { window.__cancelled++; playing = false; };
`;

describe.skipIf(!run)('the web caller in the console', () => {
  let gw: RunningGateway;
  let store: MemoryStore;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let app: IvrApp;
  let sandbox = { number: '', pin: '', secret: '' };

  const callUrl = () => `${gw.url}/console/apps/${app.streamId}/call`;
  const lastPrompt = () => page.getByTestId('last-prompt');
  const transcript = () => page.getByTestId('call-transcript');
  /** Waits until a field listens after hearing `prompt`. */
  const heard = async (prompt: string) => {
    await lastPrompt().filter({ hasText: prompt }).waitFor();
    await page.locator('button:has-text("Say it"):not([disabled])').waitFor();
  };
  const say = async (text: string) => {
    await page.getByLabel('What you say').fill(text);
    await page.getByRole('button', { name: 'Say it' }).click();
  };
  const openPanel = async () => {
    await page.goto(callUrl());
    await page.getByRole('heading', { name: 'Call', level: 1 }).waitFor();
  };
  const dialWebhook = async (mode: 'lenient' | 'strict-w3c', from = '+15550009999') => {
    await openPanel();
    await page.getByLabel('the webhook directly').check();
    await page.getByLabel('From').fill(from);
    await page.getByLabel('Mode').selectOption(mode);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
  };

  beforeAll(async () => {
    store = new MemoryStore('web-caller:');
    gw = await startGateway({ store });
    // the demo agent; one retry, so a second silence reaches the max-retries path
    app = await setupIvrApp(gw, { settings: { retries: 1 } });
    const line = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 2,
    });
    sandbox = { number: line.body.phoneNumber, pin: line.body.pin, secret: line.body.secret };
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.addInitScript(RECORD_SPEECH);
    ({ page, problems } = await watchedPage(context));
    await signIn(page, gw.url, gw.config.adminToken);
  });
  afterEach(async (ctx) => {
    // what the panel showed when a test failed, to see why
    if (ctx.task.result?.state === 'fail')
      console.log('the panel showed:', problems, await page.locator('main').innerText());
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await store?.close();
  });

  it('when the overview and the sandbox page are opened, then each links to the Call panel', async () => {
    for (const tab of ['', '/sandbox']) {
      await page.goto(`${gw.url}/console/apps/${app.streamId}${tab}`);
      const link = page.getByRole('link', { name: /from the browser/ });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`/console/apps/${app.streamId}/call`);
    }
    expect(problems).toEqual([]);
  });

  it('when the sandbox is called and the PIN and secret are keyed, then typed speech reaches the demo agent and the call ends with its values', async () => {
    await openPanel();
    await page.getByTestId('call-sandbox-number').filter({ hasText: sandbox.number }).waitFor();
    await page.getByLabel('Mode').selectOption('lenient');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await heard('PIN');
    // the PIN on the keypad's buttons, # sends it
    for (const key of sandbox.pin)
      await page.getByRole('button', { name: `Key ${key}`, exact: true }).click();
    expect(await page.getByTestId('keypad-digits').innerText()).toContain(sandbox.pin);
    await page.getByRole('button', { name: 'Key pound' }).click();
    // the secret from the keyboard
    await lastPrompt()
      .filter({ hasText: /secret/i })
      .waitFor();
    await page.locator('#keypad-title').click();
    await page.keyboard.type(`${sandbox.secret}#`);
    await heard("Welcome to Luigi's");
    expect(await page.getByTestId('field-waiting').innerText()).toContain('book a table');
    // the microphone button, or a clear word that this browser has no speech recognition
    expect(
      (await page.getByRole('button', { name: 'Speak into the microphone' }).count()) +
        (await page.getByTestId('no-microphone').count()),
    ).toBe(1);
    await say('book a table');
    await heard('For how many people?');
    await say('four');
    await heard('For which day?');
    await say('march third');
    await heard('');
    await say('yes');
    await page.getByTestId('call-ended').waitFor();
    expect(await page.getByTestId('call-ending').innerText()).toContain('return');
    expect(await page.getByTestId('call-returned').innerText()).toMatch(/endOfConversation\s+true/);
    const lines = await transcript().innerText();
    expect(lines).toMatch(new RegExp(`#${sandbox.pin}#\\s+\\(dtmf\\)`));
    expect(lines).toMatch(new RegExp(`#${sandbox.secret}#\\s+\\(dtmf\\)`));
    expect(lines).toContain('is booked');
    // each document that came back is there, collapsed
    const documents = transcript().locator('details');
    expect(await documents.count()).toBeGreaterThan(2);
    expect(await documents.first().getAttribute('open')).toBeNull();
    expect(await documents.last().locator('pre').textContent()).toContain('<vxml');
    const callId = await page.getByTestId('call-id').innerText();
    expect(
      await page.getByRole('link', { name: 'Open this call in the inspector' }).getAttribute('href'),
    ).toBe(`/console/apps/${app.streamId}/calls/${callId}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'web-caller-desktop');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'web-caller-phone');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(problems).toEqual([]);
  });

  it('when the webhook is called in strict-w3c mode, then words outside the grammar are a nomatch and words inside fill the field', async () => {
    await dialWebhook('strict-w3c');
    await heard("Welcome to Luigi's");
    expect(await page.getByTestId('field-name').innerText()).toBe('userinput');
    await say('purple elephants');
    await page.getByTestId('call-events').filter({ hasText: 'nomatch' }).waitFor();
    await heard("Welcome to Luigi's");
    await say('book a table');
    await heard('For how many people?');
    // the panel while a field listens: the keypad, the answers, the field's grammars
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'web-caller-live-desktop');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'web-caller-live-phone');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(VIEWPORTS.desktop);
    const lines = await transcript().innerText();
    expect(lines).toContain('purple elephants');
    expect(lines).toMatch(/↳ nomatch/);
    expect(lines).toContain('userinput = "BookTable"');
    expect(lines).toContain('from=+15550009999');
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.getByTestId('call-ended').waitFor();
    expect(await page.getByTestId('call-ending').innerText()).toContain('disconnect');
    expect(problems).toEqual([]);
  });

  it("when the app's documents are written for Voxeo and a W3C browser is emulated, then the number question fails with error.badfetch as on that browser, and emulating Voxeo takes the answer", async () => {
    const settings = (await gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-settings`)).body;
    expect(
      (
        await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-settings`, {
          ...settings,
          dialect: 'voxeo-prophecy',
        })
      ).status,
    ).toBe(200);
    try {
      /** Dials the webhook as a browser of `dialect`; answers what the form said that browser has. */
      const dial = async (dialect: string): Promise<string> => {
        await openPanel();
        // the form takes the app's dialect first; then the operator picks another
        await page
          .getByTestId('dialect-note')
          .filter({ hasText: 'for the voxeo-prophecy dialect' })
          .waitFor();
        await page.getByLabel('the webhook directly').check();
        await page.getByLabel('Dialect to emulate').selectOption(dialect);
        const note = await page.getByTestId('dialect-note').innerText();
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        return note;
      };
      expect(await dial('w3c')).toContain(
        'voice builtins boolean, digits; DTMF builtins boolean, digits; transcribes free speech',
      );
      await heard("Welcome to Luigi's");
      await say('book a table');
      await page.getByTestId('call-events').filter({ hasText: 'error.badfetch' }).waitFor();
      // the document's first grammar this browser lacks, named as the browser would, and its catch ends the call
      expect(await page.getByTestId('call-events').innerText()).toContain(
        "builtin:dtmf/number is not supported: this browser's dtmf builtins are boolean, digits",
      );
      expect(await transcript().innerText()).toContain('error.badfetch');
      await page.getByTestId('call-ended').waitFor();

      expect(await dial('voxeo-prophecy')).toContain(
        'voice builtins boolean, date, digits, currency, number, phone, time',
      );
      await heard("Welcome to Luigi's");
      await say('book a table');
      await heard('For how many people?');
      await say('four');
      await lastPrompt().filter({ hasText: 'For how many people?' }).waitFor({ state: 'detached' });
      expect(await transcript().innerText()).not.toContain('error.badfetch');
      await page.getByRole('button', { name: 'Hang up' }).click();
      await page.getByTestId('call-ended').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-settings`, settings);
    }
  });

  it('when the caller stays silent twice, then the max-retries path ends the call', async () => {
    await dialWebhook('lenient');
    await heard("Welcome to Luigi's");
    await page.getByRole('button', { name: 'Silence' }).click();
    await page.getByTestId('call-events').filter({ hasText: 'noinput' }).waitFor();
    await heard("Welcome to Luigi's");
    await page.getByRole('button', { name: 'Silence' }).click();
    await page.getByTestId('call-ended').waitFor();
    expect(await transcript().innerText()).toContain('event=maxretries');
    expect(await page.getByTestId('call-events').innerText()).toMatch(/noinput[\s\S]*noinput/);
    expect(problems).toEqual([]);
  });

  it('when sound is on, then each prompt is handed to speechSynthesis.speak with its text', async () => {
    await openPanel();
    await page.evaluate('window.__spoken = []');
    await page.getByRole('switch', { name: /Sound/ }).click();
    expect(await page.getByRole('switch', { name: /Sound/ }).getAttribute('aria-checked')).toBe('true');
    await page.getByLabel('the webhook directly').check();
    await page.getByLabel('Mode').selectOption('lenient');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await heard("Welcome to Luigi's");
    await say('purple elephants');
    await heard("Welcome to Luigi's");
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.getByTestId('call-ended').waitFor();
    const prompts = await transcript().locator('li[data-kind="say"] > :last-child').allInnerTexts();
    const spoken = await page.evaluate<string[]>('window.__spoken');
    expect(prompts.length).toBeGreaterThanOrEqual(3);
    expect(spoken).toEqual(prompts);
    expect(problems).toEqual([]);
  });

  it('when the operator answers through the microphone, then what the recognizer heard goes to the webhook as speech with its confidence', async () => {
    // headless Chromium's recognizer needs a network service: a stand-in for the browser's engine
    // (outside the system) hears what the test puts in window.__nextUtterance
    const own = await browser.newContext({
      viewport: VIEWPORTS.desktop,
      storageState: await context.storageState(),
    });
    await own.addInitScript(FAKE_RECOGNIZER);
    const watched = await watchedPage(own);
    const p = watched.page;
    try {
      await p.goto(callUrl());
      await p.getByLabel('the webhook directly').check();
      await p.getByLabel('Mode').selectOption('lenient');
      await p.getByRole('button', { name: 'Call', exact: true }).click();
      await p.getByTestId('last-prompt').filter({ hasText: "Welcome to Luigi's" }).waitFor();
      await p.evaluate("window.__nextUtterance = 'book a table'");
      await p.getByRole('button', { name: 'Speak into the microphone' }).click();
      await p.getByTestId('last-prompt').filter({ hasText: 'For how many people?' }).waitFor();
      // the recognizer listens in the app's language
      expect(await p.evaluate<string>('window.__recognizerLang')).toBe(
        (await gw.admin('GET', `/api/admin/apps/${app.streamId}`)).body.language,
      );
      const lines = await p.getByTestId('call-transcript').innerText();
      expect(lines).toMatch(/book a table[\s\S]*voice, confidence 0\.77/);
      // nothing heard: the panel says so, and the field still waits
      await p.evaluate("window.__nextUtterance = ''");
      await p.getByRole('button', { name: 'Speak into the microphone' }).click();
      await p.getByText('Nothing was heard.').waitFor();
      await p.getByRole('button', { name: 'Hang up' }).click();
      await p.getByTestId('call-ended').waitFor();
      expect(watched.problems).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('when the operator types while a prompt is spoken, then the prompt stops only where the documents allow barge-in', async () => {
    const own = await browser.newContext({
      viewport: VIEWPORTS.desktop,
      storageState: await context.storageState(),
    });
    await own.addInitScript(FAKE_SPEECH_ENGINE);
    const watched = await watchedPage(own);
    const p = watched.page;
    /** Calls the webhook with sound on, types two letters while the welcome plays; answers whether it stopped. */
    const typeDuringWelcome = async (): Promise<{
      cancelled: number;
      stillSpeaking: boolean;
      field: string;
    }> => {
      await p.goto(callUrl());
      await p.getByRole('switch', { name: /Sound/ }).click();
      await p.getByLabel('the webhook directly').check();
      await p.getByRole('button', { name: 'Call', exact: true }).click();
      await p.getByTestId('last-prompt').filter({ hasText: "Welcome to Luigi's" }).waitFor();
      await p.locator('button:has-text("Say it"):not([disabled])').waitFor();
      expect(await p.evaluate<boolean>('window.speechSynthesis.speaking')).toBe(true);
      await p.evaluate('window.__cancelled = 0');
      await p.getByLabel('What you say').pressSequentially('bo');
      const seen = {
        cancelled: await p.evaluate<number>('window.__cancelled'),
        stillSpeaking: await p.evaluate<boolean>('window.speechSynthesis.speaking'),
        field: await p.getByTestId('field-waiting').innerText(),
      };
      await p.getByRole('button', { name: 'Hang up' }).click();
      await p.getByTestId('call-ended').waitFor();
      return seen;
    };
    try {
      // the gateway's default: bargein false, the prompt plays to the end
      const closed = await typeDuringWelcome();
      expect(closed).toMatchObject({ cancelled: 0, stillSpeaking: true });
      expect(closed.field).toContain('no barge-in');
      const put = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-settings`, {
        enabled: true,
        retries: 1,
        vxmlProperties: { bargein: true },
      });
      expect(put.status).toBe(200);
      const open = await typeDuringWelcome();
      expect(open.cancelled).toBeGreaterThanOrEqual(1);
      expect(open.stillSpeaking).toBe(false);
      expect(open.field).not.toContain('no barge-in');
      expect(watched.problems).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('when "Fill in for me" is confirmed, then new PIN and secret are made and keyed for the operator, masked', async () => {
    await openPanel();
    await page.getByTestId('call-sandbox-number').waitFor();
    await page.getByRole('button', { name: 'Fill in for me' }).click();
    await page.getByRole('button', { name: 'Make new ones and fill them in' }).click();
    await expect.poll(() => page.getByLabel('PIN (optional)').inputValue()).toMatch(/^\d{6}$/);
    expect(await page.getByLabel('Secret (optional)').inputValue()).toMatch(/^\d{8}$/);
    // the fields hold them masked, as the sandbox page does until asked
    expect(await page.getByLabel('PIN (optional)').getAttribute('type')).toBe('password');
    expect(await page.getByLabel('Secret (optional)').getAttribute('type')).toBe('password');
    await page.getByLabel('Mode').selectOption('lenient');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await heard("Welcome to Luigi's");
    const lines = await transcript().innerText();
    expect(lines).toContain('(auto PIN)');
    expect(lines).toContain('(auto secret)');
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.getByTestId('call-ended').waitFor();
    expect(problems).toEqual([]);
  });
});
