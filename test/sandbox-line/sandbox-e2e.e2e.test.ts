import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { runCall } from '../../sandbox/index.js';
import { MemoryStore, type Store } from '../../src/store/index.js';

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';
const subdialogSrcOf = (xml: string) =>
  /<subdialog[^>]*src="([^"]+)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&') ?? '';

describeEachStore('test sandbox', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let line: { phoneNumber: string; pin: string; secret: string };

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, options: { sandbox: { lockoutS: 1, lineTtlMs: 1_500 } } });
    app = await setupIvrApp(gw, { settings: { enabled: false } });
    const r = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 1,
    });
    expect(r.status).toBe(200);
    line = r.body;
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const enter = (from: string, callId: string) =>
    gw.submit(`${gw.url}/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}`, { from, callId });
  const login = (from: string, callId: string, attempt: string, pin: string, secret: string) =>
    gw.submit(
      `${gw.url}/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}?step=login&callId=${callId}&from=${encodeURIComponent(from)}`,
      { attempt, pin, secret },
    );

  it('when the sandbox is enabled, then it answers an E.164 number, a keypad PIN and secret, and pre-fills the required settings', async () => {
    expect(line.phoneNumber).toMatch(/^\+1555\d{7}$/);
    expect(line.pin).toMatch(/^\d{6}$/);
    expect(line.secret).toMatch(/^\d{8}$/);
    const settings = await gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-settings`);
    expect(settings.body).toMatchObject({
      enabled: true,
      transcription: { enabled: true, engine: 'builtin:speech/transcribe' },
      dataExtractionKey: 'user input',
      confidenceKey: 'userinput confidence',
      confidenceThreshold: 50,
    });
    const other = await setupIvrApp(gw, { name: 'Other' });
    const second = await gw.admin('PUT', `/api/admin/apps/${other.streamId}/ivr-sandbox`, { enabled: true });
    expect(second.body.phoneNumber).not.toBe(line.phoneNumber);
    const again = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-sandbox`, {
      enabled: true,
      maxConcurrentCalls: 1,
    });
    expect(again.body.phoneNumber).toBe(line.phoneNumber);
  });

  it('when a tester calls with the right PIN and secret, then the agent runs as a subdialog and the call hangs up after the end', async () => {
    const result = await runCall({
      startUrl: `${gw.url}/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}`,
      startMethod: 'POST',
      startParams: { from: '+15550002222' },
      pin: line.pin,
      secret: line.secret,
      mode: 'lenient',
      inputs: ['book a table', 'four', 'tomorrow', 'yes'],
      fetch: gw.docs.fetch(),
      plain: true,
    });
    const spoken = result.spoken.join(' ');
    expect(spoken).toContain("Welcome to Luigi's");
    expect(spoken).toContain('For how many people?');
    expect(spoken).toContain('is booked');
    expect(result.result?.endOfConversation).toBe(true);
    expect(result.failure ?? result.error).toBeUndefined();
    expect(await gw.gateway.sandbox.linesInUse(app.streamId)).toBe(0);
  });

  it('when a wrong PIN is entered, then it is re-asked; five wrong entries lock the caller out until the lockout expires', async () => {
    const from = '+15550003333';
    let doc = (await enter(from, 'c-wrong')).xml;
    for (let i = 0; i < 4; i++) {
      doc = (await login(from, 'c-wrong', attemptOf(doc), '000000', '00000000')).xml;
      expect(doc).toContain('did not match');
    }
    doc = (await login(from, 'c-wrong', attemptOf(doc), '000000', '00000000')).xml;
    expect(doc).toContain('locked');
    expect((await enter(from, 'c-wrong2')).xml).toContain('locked');
    expect((await enter('+15550004444', 'c-other')).xml).toContain('key in your PIN');
    await new Promise((r) => setTimeout(r, 1_300));
    expect((await enter(from, 'c-wrong3')).xml).toContain('key in your PIN');
  });

  it('when a PIN submission is replayed, then the used attempt is refused', async () => {
    const from = '+15550005555';
    const doc = (await enter(from, 'c-replay')).xml;
    const first = await login(from, 'c-replay', attemptOf(doc), line.pin, line.secret);
    expect(first.xml).toContain('<subdialog');
    await gw.gateway.sandbox.release(app.streamId, 'c-replay');
    const replay = await login(from, 'c-replay-2', attemptOf(doc), line.pin, line.secret);
    expect(replay.xml).not.toContain('<subdialog');
  });

  it('when the lines are all taken, then the next caller hears that lines are busy; a hangup frees the line', async () => {
    const a = (await enter('+15550006666', 'c-line-a')).xml;
    const connected = (await login('+15550006666', 'c-line-a', attemptOf(a), line.pin, line.secret)).xml;
    const webhook = subdialogSrcOf(connected);
    expect(webhook).toContain('/ivr/hooks/');
    const b = (await enter('+15550007777', 'c-line-b')).xml;
    expect((await login('+15550007777', 'c-line-b', attemptOf(b), line.pin, line.secret)).xml).toContain(
      'All lines are busy',
    );
    await gw.submit(webhook, { callId: 'c-line-a', message: '', from: '+15550006666', to: app.streamId });
    await gw.submit(webhook, { callId: 'c-line-a', turn: '1', event: 'hangup' });
    const b2 = (await enter('+15550007777', 'c-line-b2')).xml;
    expect((await login('+15550007777', 'c-line-b2', attemptOf(b2), line.pin, line.secret)).xml).toContain(
      '<subdialog',
    );
    await gw.gateway.sandbox.release(app.streamId, 'c-line-b2');
  });

  it('when the operator reads the sandbox status, then it shows the number, the line limit and the lines in use, never the PIN or secret', async () => {
    const status = () => gw.admin('GET', `/api/admin/apps/${app.streamId}/ivr-sandbox/status`);
    const idle = await status();
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({
      enabled: true,
      phoneNumber: line.phoneNumber,
      maxConcurrentCalls: 1,
      linesInUse: 0,
    });
    const a = (await enter('+15550005555', 'c-status')).xml;
    expect((await login('+15550005555', 'c-status', attemptOf(a), line.pin, line.secret)).xml).toContain(
      '<subdialog',
    );
    expect((await status()).body.linesInUse).toBe(1);
    await gw.gateway.sandbox.release(app.streamId, 'c-status');
    expect((await status()).body.linesInUse).toBe(0);
    const other = await gw.admin('POST', '/api/admin/apps', { name: 'No sandbox' });
    expect((await gw.admin('GET', `/api/admin/apps/${other.body.streamId}/ivr-sandbox/status`)).body).toEqual(
      { enabled: false, phoneNumber: '', maxConcurrentCalls: 0, linesInUse: 0 },
    );
  });

  it('when a call crashes without hanging up, then its line is freed when it expires', async () => {
    const a = (await enter('+15550008888', 'c-crash')).xml;
    expect((await login('+15550008888', 'c-crash', attemptOf(a), line.pin, line.secret)).xml).toContain(
      '<subdialog',
    );
    const b = (await enter('+15550009999', 'c-after')).xml;
    expect((await login('+15550009999', 'c-after', attemptOf(b), line.pin, line.secret)).xml).toContain(
      'All lines are busy',
    );
    await new Promise((r) => setTimeout(r, 1_700));
    const c = (await enter('+15550009999', 'c-after2')).xml;
    expect((await login('+15550009999', 'c-after2', attemptOf(c), line.pin, line.secret)).xml).toContain(
      '<subdialog',
    );
  });
});

describe('sandbox on-premise', () => {
  it('when DEPLOYMENT=onprem, then enabling the sandbox is refused with a clear error', async () => {
    const store = new MemoryStore('onprem:');
    const gw = await startGateway({ store, config: { deployment: 'onprem' } });
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'x' });
    const r = await gw.admin('PUT', `/api/admin/apps/${app.body.streamId}/ivr-sandbox`, { enabled: true });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].msg).toMatch(/on-premise/);
    await gw.close();
    await store.close();
  });
});
