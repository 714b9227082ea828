/**
 * The README's runs (a, a2, b, b2, b3, c, d, e, f, f2, f3, g, h, i) replayed against a real local
 * HTTP server that serves the spec example documents in scenario order, in both browser modes.
 * And README.md's own shell blocks, run exactly as written (bash, the first failing command fails
 * the block) against a started service, as a newcomer pastes them into a second terminal.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCall, type CallResult, type RunCallOptions } from '../../sandbox/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runShellBlock, shellBlocks } from '../helpers/shell-blocks.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { startGatewayStub, STREAM_ID, TOKEN, type GatewayStub, type StubAnswer } from './gateway-stub.js';

const CALL_ID = 'c0a8012e-7d41-4b6a-9f3e-5e2d1c0b9a87';
const FROM = '+14155550123';
const WELCOME = "Welcome to Luigi's. … How can I help you today?";
const GOODBYE = "Thank you for calling Luigi's. Goodbye.";
const ROOT_APOLOGY = 'Sorry, our assistant is not available right now. Please call again later.';

let stub: GatewayStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const files = (...names: string[]): StubAnswer[] => names.map((file) => ({ file }));

/** Serves the scenario, then runs customer-root.vxml (the spec file itself) as the top document. */
async function call(
  hooks: StubAnswer[],
  inputs: string[],
  extra: Partial<RunCallOptions> = {},
): Promise<CallResult> {
  stub = await startGatewayStub({ hooks });
  const root = extra.rootDocument ?? stub.example('customer-root.vxml');
  return runCall({
    rootDocument: root,
    rootUrl: `${stub.origin}/ivr/root.vxml`,
    inputs,
    from: FROM,
    ...extra,
  });
}

const hooks = (): GatewayStub['requests'] => (stub as GatewayStub).hookRequests();
const swapNumberForDigits = (xml: string): string =>
  xml.replace('builtin:grammar/number', 'builtin:grammar/digits');

describe('run a: intent turn, entity turn, say-continue, end-return', () => {
  it('when the caller says "check my booking" and keys #4567 in lenient mode, then every turn is submitted with its ASR values and the root gets endOfConversation', async () => {
    const r = await call(
      files(
        'bootstrap.vxml',
        'ask-intent.vxml',
        'ask-entity-dtmf.vxml',
        'say-continue.vxml',
        'end-return.vxml',
      ),
      ['check my booking', '#4567'],
    );
    const req = hooks();
    expect(req.map((q) => q.method)).toEqual(['GET', 'POST', 'POST', 'POST', 'POST']);
    expect(req[0]?.query).toEqual({ token: TOKEN, callId: CALL_ID, message: '', from: FROM, to: STREAM_ID });
    expect(req[1]?.body).toEqual({ callId: CALL_ID, message: '', from: FROM, to: STREAM_ID });
    expect(req[1]?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req[1]?.query).toEqual({ token: TOKEN });
    expect(req[2]?.body).toEqual({
      callId: CALL_ID,
      from: FROM,
      turn: '1',
      message: 'check my booking',
      interpretation: 'CheckBooking',
      confidence: '0.9',
      inputmode: 'voice',
    });
    expect(req[3]?.body).toEqual({
      callId: CALL_ID,
      from: '+14155550123',
      turn: '2',
      message: '4567',
      interpretation: '4567',
      confidence: '1',
      inputmode: 'dtmf',
    });
    expect(req[4]?.body).toEqual({ callId: CALL_ID, turn: '3', event: 'continue' });
    expect(r.spoken).toEqual([
      WELCOME,
      'Please say or key in your booking number, then press the pound key.',
      'Booking 4567 is a table for four tonight at 8 PM. … We look forward to seeing you.',
      GOODBYE,
    ]);
    expect(r.ended).toBe('return');
    expect(r.result).toEqual({ endOfConversation: true, callId: CALL_ID });
    expect(r.transcript).toContain('📝 agent returned endOfConversation=true');
    expect(r.submits.map((s) => s.params.turn ?? s.params.event ?? 'bootstrap')).toEqual([
      'bootstrap',
      '1',
      '2',
      '3',
    ]);
    expect(r.submits[1]).toEqual({ url: stub?.webhookUrl, method: 'POST', params: req[2]?.body });
    expect(r.fetches.every((f) => f.status === 200 && f.ms >= 0)).toBe(true);
  });

  it('when the same run is made in strict-w3c mode, then the entity document fails with error.badfetch (builtin:grammar/number, quirk 7) and the root apologises', async () => {
    const r = await call(
      files(
        'bootstrap.vxml',
        'ask-intent.vxml',
        'ask-entity-dtmf.vxml',
        'say-continue.vxml',
        'end-return.vxml',
      ),
      ['check my booking', '#4567'],
      { mode: 'strict-w3c' },
    );
    const req = hooks();
    expect(req).toHaveLength(3);
    expect(req[0]?.method).toBe('GET');
    expect(req[0]?.query).toEqual({ token: TOKEN });
    expect(req[1]?.body).toEqual({ callId: CALL_ID, message: '', from: FROM, to: STREAM_ID });
    expect(req[2]?.body).toMatchObject({ turn: '1', interpretation: 'CheckBooking' });
    expect(r.spoken).toEqual([WELCOME, ROOT_APOLOGY]);
    expect(r.events.filter((e) => e.name === 'error.badfetch').map((e) => [e.depth, e.caught])).toEqual([
      [1, false],
      [0, true],
    ]);
    expect(r.ended).toBe('error');
    expect(r.error).toMatch(/builtin:grammar\/number/);
  });

  it('when the server swaps in builtin:grammar/digits (run a2) in strict-w3c mode, then the full flow runs and turn 2 carries the DTMF values', async () => {
    const hooksA2 = files(
      'bootstrap.vxml',
      'ask-intent.vxml',
      'ask-entity-dtmf.vxml',
      'say-continue.vxml',
      'end-return.vxml',
    );
    (hooksA2[2] as StubAnswer).transform = swapNumberForDigits;
    const r = await call(hooksA2, ['check my booking', '#4567'], { mode: 'strict-w3c' });
    const req = hooks();
    expect(req.map((q) => q.body.turn ?? '')).toEqual(['', '', '1', '2', '3']);
    expect(req[3]?.body).toEqual({
      callId: CALL_ID,
      from: FROM,
      turn: '2',
      message: '4567',
      interpretation: '4567',
      confidence: '1',
      inputmode: 'dtmf',
    });
    expect(r.ended).toBe('return');
    expect(r.result?.endOfConversation).toBe(true);
  });

  it('when the booking number is spoken against the digits grammar, then it is submitted as voice with the digits as interpretation', async () => {
    const hooksA2 = files(
      'bootstrap.vxml',
      'ask-intent.vxml',
      'ask-entity-dtmf.vxml',
      'say-continue.vxml',
      'end-return.vxml',
    );
    (hooksA2[2] as StubAnswer).transform = swapNumberForDigits;
    await call(hooksA2, ['check my booking', 'four five six seven'], { mode: 'strict-w3c', confidence: 0.8 });
    expect(hooks()[3]?.body).toMatchObject({
      message: 'four five six seven',
      interpretation: '4567',
      confidence: '0.8',
      inputmode: 'voice',
    });
  });
});

describe('runs b, b2, b3: retries and grammar matching', () => {
  it('when the caller is silent twice (run b), then a no-input prompt and a reprompt play and turn 1 submits event=maxretries', async () => {
    const r = await call(files('bootstrap.vxml', 'ask-intent.vxml', 'end-return.vxml'), [
      '!noinput',
      '!noinput',
    ]);
    expect(hooks()[2]?.body).toEqual({ callId: CALL_ID, turn: '1', event: 'maxretries' });
    expect(r.spoken).toEqual([WELCOME, "Sorry, I didn't hear anything.", WELCOME, GOODBYE]);
    expect(r.transcript).toContain('🗣 (silence, 4s timeout)');
    expect(r.result?.endOfConversation).toBe(true);
  });

  it('when a nomatch is followed by two silences (run b3), then counts are kept per event and maxretries comes after three failures', async () => {
    const r = await call(files('bootstrap.vxml', 'ask-intent.vxml', 'end-return.vxml'), [
      'hello there',
      '!noinput',
      '!noinput',
    ]);
    expect(r.spoken).toEqual([
      WELCOME,
      "Sorry, I didn't get that.",
      WELCOME,
      "Sorry, I didn't hear anything.",
      WELCOME,
      GOODBYE,
    ]);
    expect(hooks()[2]?.body).toEqual({ callId: CALL_ID, turn: '1', event: 'maxretries' });
    expect(r.events.map((e) => e.name)).toEqual([
      'nomatch',
      'noinput',
      'noinput',
      'connection.disconnect.hangup',
    ]);
  });

  it('when a longer utterance starts with a grammar phrase (run b2) in lenient mode, then the phrase matches and the whole text is the message', async () => {
    await call(files('bootstrap.vxml', 'ask-intent.vxml', 'end-return.vxml'), ['Check my booking please']);
    expect(hooks()[2]?.body).toMatchObject({
      turn: '1',
      message: 'Check my booking please',
      interpretation: 'CheckBooking',
    });
  });

  it('when the same longer utterance is said in strict-w3c mode, then it is a nomatch and only an exact (lower-cased, trimmed) phrase fills the field', async () => {
    const r = await call(
      files('bootstrap.vxml', 'ask-intent.vxml', 'end-return.vxml'),
      ['check my booking please', '  Book a Table '],
      { mode: 'strict-w3c' },
    );
    expect(r.spoken.slice(0, 3)).toEqual([WELCOME, "Sorry, I didn't get that.", WELCOME]);
    expect(hooks()[2]?.body).toMatchObject({
      turn: '1',
      message: 'Book a Table',
      interpretation: 'BookTable',
      inputmode: 'voice',
    });
  });
});

describe('run c: the wait document', () => {
  it('when the gateway answers wait twice and holds its answers, then the hold prompt plays twice, both polls carry turn=2, and fetchaudio is never fetched', async () => {
    const r = await call(
      [
        { file: 'bootstrap.vxml' },
        { file: 'wait.vxml' },
        { file: 'wait.vxml', delayMs: 300 },
        { file: 'end-return.vxml', delayMs: 300 },
      ],
      [],
    );
    const req = hooks();
    expect(req.slice(2).map((q) => q.body)).toEqual([
      { callId: CALL_ID, turn: '2', event: 'poll' },
      { callId: CALL_ID, turn: '2', event: 'poll' },
    ]);
    expect(r.spoken).toEqual([
      "One moment please, I'm checking that for you.",
      "One moment please, I'm checking that for you.",
      GOODBYE,
    ]);
    expect(stub?.requests.some((q) => q.path.includes('hold-music'))).toBe(false);
    expect(r.fetches.slice(-2).every((f) => f.ms >= 250)).toBe(true);
    expect(r.ended).toBe('return');
  });
});

describe('run d: transfer', () => {
  it('when the transfer gets the default outcome, then the destination and aai are shown and transferResult=noanswer is submitted', async () => {
    const r = await call(files('bootstrap.vxml', 'transfer.vxml', 'end-return.vxml'), []);
    expect(hooks()[2]?.body).toEqual({
      callId: CALL_ID,
      turn: '5',
      event: 'transfer',
      transferResult: 'noanswer',
    });
    expect(r.spoken).toContain('Please hold while I connect you to our reservations team.');
    expect(r.transcript).toContain(
      '📞 bridge transfer to tel:+15550100  aai=skillGroupId=sg-5e8a2c17;skillGroupName=Reservations',
    );
  });

  it('when the platform cannot transfer (error.noresource), then the in-transfer catch submits the event name as transferResult', async () => {
    await call(files('bootstrap.vxml', 'transfer.vxml', 'end-return.vxml'), [], {
      transferOutcome: 'error.noresource',
    });
    expect(hooks()[2]?.body).toEqual({
      callId: CALL_ID,
      turn: '5',
      event: 'transfer',
      transferResult: 'error.noresource',
    });
  });
});

describe('runs e, f, f2, f3: the end of the agent', () => {
  it('when the agent ends with <disconnect/> (run e), then the goodbye plays, the call ends as a disconnect and the root filled never runs', async () => {
    const r = await call(files('bootstrap.vxml', 'end-disconnect.vxml'), []);
    expect(r.spoken).toEqual([GOODBYE]);
    expect(r.ended).toBe('disconnect');
    expect(r.result).toBeUndefined();
    expect(r.transcript.some((l) => l.includes('agent returned'))).toBe(false);
  });

  it('when the gateway answers error.vxml with HTTP 200 (run f), then the apology plays and the root gets endOfConversation and the error name', async () => {
    const r = await call(files('bootstrap.vxml', 'error.vxml'), []);
    expect(r.spoken).toEqual(['Sorry, something went wrong on our side. Please try again later.']);
    expect(r.result).toEqual({ endOfConversation: true, error: 'store_unavailable' });
    expect(r.transcript).toContain('📝 agent returned endOfConversation=true');
  });

  it('when the error document comes with HTTP 503 (run f2), then its body is never run and error.badfetch reaches the root catch', async () => {
    const r = await call([{ file: 'bootstrap.vxml' }, { file: 'error.vxml', status: 503 }], []);
    expect(r.spoken).toEqual([ROOT_APOLOGY]);
    expect(r.events.find((e) => e.depth === 0)).toMatchObject({
      name: 'error.badfetch.http.503',
      caught: true,
    });
    expect(r.ended).toBe('error');
  });

  it('when the first GET is answered 401 (run f3), then the gateway apology is never heard and the root apologises', async () => {
    const r = await call([{ file: 'error.vxml', status: 401 }], []);
    expect(hooks()).toHaveLength(1);
    expect(r.spoken).toEqual([ROOT_APOLOGY]);
    expect(r.events[0]).toMatchObject({ name: 'error.badfetch.http.401', caught: true, depth: 0 });
  });
});

describe('run g: transcription', () => {
  it('when a field has builtin:speech/transcribe in lenient mode, then any text fills it with the configured confidence', async () => {
    await call(
      files('bootstrap.vxml', 'ask-transcription.vxml', 'end-return.vxml'),
      ['I would like a table for two'],
      { confidence: 0.75 },
    );
    expect(hooks()[2]?.body).toEqual({
      callId: CALL_ID,
      from: FROM,
      turn: '4',
      message: 'I would like a table for two',
      interpretation: 'I would like a table for two',
      confidence: '0.75',
      inputmode: 'voice',
    });
  });

  it('when the same document runs in strict-w3c mode, then builtin:speech/transcribe is error.badfetch and the field never runs', async () => {
    const r = await call(files('bootstrap.vxml', 'ask-transcription.vxml', 'end-return.vxml'), ['anything'], {
      mode: 'strict-w3c',
    });
    expect(r.spoken).toEqual([ROOT_APOLOGY]);
    expect(r.events[0]).toMatchObject({ name: 'error.badfetch', depth: 1, caught: false });
    expect(hooks()).toHaveLength(2);
  });
});

describe('runs h and i: where the params go', () => {
  it('when ask-intent answers the first GET in strict-w3c mode (run h), then error.semantic is raised before the first prompt', async () => {
    const r = await call(files('ask-intent.vxml'), ['book a table'], { mode: 'strict-w3c' });
    expect(r.spoken).toEqual([]);
    expect(r.events[0]).toMatchObject({ name: 'error.semantic', depth: 1 });
    expect(r.events[0]?.message).toMatch(/callId.*no <var>/);
    expect(r.ended).toBe('error');
  });

  it('when ask-intent answers the first GET in lenient mode, then the params arrive in the query and the dialog runs', async () => {
    const r = await call(files('ask-intent.vxml', 'end-return.vxml'), ['book a table']);
    expect(hooks()[0]?.query).toMatchObject({ callId: CALL_ID, message: '', from: FROM, to: STREAM_ID });
    expect(hooks()[1]?.body).toMatchObject({ turn: '1', interpretation: 'BookTable' });
    expect(r.ended).toBe('return');
  });

  it('when the root says <subdialog method="post"> (run i), then lenient still GETs with the params in the query and strict POSTs without them', async () => {
    stub = await startGatewayStub({ hooks: files('bootstrap.vxml', 'end-return.vxml') });
    const postRoot = stub
      .example('customer-root.vxml')
      .replace('<subdialog name="bot"', '<subdialog name="bot" method="post"');
    await runCall({ rootDocument: postRoot, rootUrl: stub.origin, inputs: [] });
    expect(hooks()[0]).toMatchObject({
      method: 'GET',
      query: { token: TOKEN, callId: CALL_ID, message: '', from: FROM, to: STREAM_ID },
    });
    await stub.close();
    stub = await startGatewayStub({ hooks: files('bootstrap.vxml', 'end-return.vxml') });
    const strictRoot = stub
      .example('customer-root.vxml')
      .replace('<subdialog name="bot"', '<subdialog name="bot" method="post"');
    const strict = await runCall({
      rootDocument: strictRoot,
      rootUrl: stub.origin,
      inputs: [],
      mode: 'strict-w3c',
    });
    expect(hooks()[0]).toMatchObject({ method: 'POST', query: { token: TOKEN }, body: {} });
    expect(hooks()[1]?.body).toEqual({ callId: CALL_ID, message: '', from: FROM, to: STREAM_ID });
    expect(strict.ended).toBe('return');
  });
});

describe('README.md: its shell blocks, run as written against a started service', () => {
  /** The blocks that start the service itself: the test starts it instead (it is what they make). */
  const START = 'npm install && npm start\n';
  let gw: RunningGateway;
  let env: Record<string, string>;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(`readme-${Date.now()}:`) });
    env = { BASE: gw.url, ADMIN: gw.config.adminToken };
  });
  afterAll(async () => {
    await gw.close();
  });

  const blocks = shellBlocks('README.md');
  const byText = (part: string) => {
    const found = blocks.filter((b) => b.text.includes(part));
    expect(found, part).toHaveLength(1);
    return found[0]!;
  };

  it('when the README is counted, then it is at most 1,500 words, read in ten minutes', () => {
    const words = readFileSync(join(repoRoot, 'README.md'), 'utf8').split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThan(500);
    expect(words).toBeLessThanOrEqual(1500);
  });

  it('when the README is read, then every shell block but the one that starts the service is one this test runs', () => {
    expect(blocks.filter((b) => b.text === START)).toHaveLength(1);
    const others = blocks.filter((b) => b.text !== START);
    // each of these is run below; a new block fails here until it is run too
    expect(others.map((b) => b.index)).toEqual([
      byText('/api/admin/apps').index,
      byText('npm run demo:setup').index,
    ]);
  });

  it('when the first call is pasted, then it makes an app, its agent, channel and token, and the webhook answers the welcome in valid VoiceXML', async () => {
    const run = await runShellBlock(byText('/api/admin/apps'), env, 120_000);
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
    const xml = /<\?xml[\s\S]*?<\/vxml>/.exec(run.stdout)?.[0];
    expect(xml, run.stdout).toBeDefined();
    expect(xml).toContain('Hello. Ask me about our opening hours.');
    expect(xml).toMatch(/<var name="turn" expr="'1'"\s*\/>/);
    await assertValidVxml(xml!);
    const app = /console\/apps\/(st-[\w-]+)/.exec(run.stdout)?.[1];
    expect(run.stdout).toContain(`Now open ${gw.url}/console/apps/${app}`);
    const calls = gw.log.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'turn answered' && l.streamId === app);
    expect(calls.map((l) => [l.callId, l.outcome])).toEqual([['first-call-1', 'ask']]);
    // what the README says the console's Calls page then shows
    const listed = await gw.admin('GET', `/api/admin/apps/${app}/calls`);
    expect(JSON.stringify(listed.body)).toContain('first-call-1');
  });

  it('when the first call is pasted without ADMIN set, then it stops at once and says what to set', async () => {
    const run = await runShellBlock(byText('/api/admin/apps'), { BASE: gw.url, ADMIN: '' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('export ADMIN=');
  });

  it('when the demo block is pasted, then it sets up the demo and the call line it prints runs the call to its end', async () => {
    const run = await runShellBlock(byText('npm run demo:setup'), env, 120_000);
    expect(run.code, run.stderr).toBe(0);
    const line = /^\s*(npm run call -- .*)$/m.exec(run.stdout)?.[1];
    expect(line, run.stdout).toBeDefined();
    const call = await runShellBlock({ index: 0, line: 0, text: `${line} --plain\n` }, env, 120_000);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/call ended/);
  });
});
