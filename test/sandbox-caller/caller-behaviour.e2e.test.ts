/**
 * The caller beyond the README runs: hang-ups, VoiceXML count selection, the sandbox entry with
 * automatic PIN and secret, the generated customer root, fetch failures and scripted inputs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CallScript, customerRootDocument, runCall } from '../../sandbox/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { renderDocument } from '../../src/vxml/index.js';
import { samples } from '../vxml/sample-documents.js';
import { startGatewayStub, STREAM_ID, TOKEN, type GatewayStub } from './gateway-stub.js';

let stub: GatewayStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const COUNTED = `<?xml version="1.0" encoding="UTF-8"?>
<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">
  <var name="turn" expr="'7'"/>
  <form id="f">
    <field name="answer">
      <prompt count="1">First ask.</prompt>
      <prompt count="3">Third ask.</prompt>
      <grammar src="builtin:grammar/boolean"/>
      <noinput count="1"><prompt>Silence one.</prompt><reprompt/></noinput>
      <noinput count="3"><prompt>Silence three.</prompt><reprompt/></noinput>
      <nomatch><prompt>No match.</prompt></nomatch>
      <filled><var name="said" expr="answer"/><return namelist="said turn"/></filled>
    </field>
  </form>
</vxml>`;

const SANDBOX_ENTRY = `<?xml version="1.0" encoding="UTF-8"?>
<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">
  <form id="login">
    <field name="code">
      <prompt>Welcome to the sandbox. Please enter your PIN.</prompt>
      <grammar mode="dtmf" src="builtin:dtmf/digits"/>
    </field>
    <field name="key">
      <prompt>Now enter your secret.</prompt>
      <grammar mode="dtmf" src="builtin:dtmf/digits"/>
    </field>
    <block><submit next="/ivr/sandbox/+15550009999/check" method="post" namelist="code key"/></block>
  </form>
</vxml>`;

const SANDBOX_AGENT = `<?xml version="1.0" encoding="UTF-8"?>
<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">
  <form id="agent">
    <subdialog name="bot" src="https://gateway.example.com/ivr/hooks/${STREAM_ID}?token=${TOKEN}">
      <param name="callId" expr="'sandbox-call-1'"/>
      <param name="message" expr="''"/>
      <param name="from" expr="session.connection.remote.uri"/>
      <param name="to" expr="'${STREAM_ID}'"/>
      <filled>
        <if cond="bot.endOfConversation == true">
          <prompt>Sandbox call finished. Goodbye.</prompt>
          <disconnect/>
        </if>
      </filled>
    </subdialog>
  </form>
</vxml>`;

describe('hang-ups and the line going down', () => {
  it('when the caller hangs up during a field, then the document hangup catch submits event=hangup and later prompts are not heard', async () => {
    stub = await startGatewayStub({
      hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }, { file: 'end-disconnect.vxml' }],
    });
    const r = await runCall({ webhookUrl: stub.webhookUrl, inputs: ['!hangup'], callId: 'c-1' });
    expect(stub.hookRequests()[2]?.body).toEqual({
      callId: 'c0a8012e-7d41-4b6a-9f3e-5e2d1c0b9a87',
      turn: '1',
      event: 'hangup',
    });
    expect(r.spoken).not.toContain("Thank you for calling Luigi's. Goodbye.");
    expect(r.transcript.some((l) => l.startsWith('🔇') && l.includes('Goodbye'))).toBe(true);
    expect(r.ended).toBe('disconnect');
  });
});

describe('VoiceXML count selection', () => {
  it('when events repeat, then the prompt and the handler with the highest count not above the counter are chosen, and a handler without reprompt silences the next prompt', async () => {
    stub = await startGatewayStub({ hooks: [], other: { '/counted.vxml': [{ body: COUNTED }] } });
    const r = await runCall({
      startUrl: `${stub.origin}/counted.vxml`,
      inputs: ['!noinput', '!noinput', '!noinput', 'maybe', 'yes'],
    });
    expect(r.spoken).toEqual([
      'First ask.',
      'Silence one.',
      'First ask.',
      'Silence one.',
      'Third ask.',
      'Silence three.',
      'Third ask.',
      'No match.',
    ]);
    expect(r.ended).toBe('return');
    expect(r.result).toEqual({ said: true, turn: '7' });
  });

  it('when the voice confidence is below the confidencelevel property, then the utterance is a nomatch', async () => {
    stub = await startGatewayStub({
      hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }, { file: 'end-return.vxml' }],
    });
    const r = await runCall({
      webhookUrl: stub.webhookUrl,
      inputs: ['book a table', 'book a table'],
      confidence: 0.3,
    });
    expect(r.spoken.slice(0, 3)).toEqual([
      "Welcome to Luigi's. … How can I help you today?",
      "Sorry, I didn't get that.",
      "Welcome to Luigi's. … How can I help you today?",
    ]);
    expect(stub.hookRequests()[2]?.body).toMatchObject({ event: 'maxretries' });
  });
});

describe('the sandbox entry (phone number mode)', () => {
  it('when PIN and secret are given, then both DTMF prompts are answered automatically and the agent runs as a subdialog', async () => {
    stub = await startGatewayStub({
      hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }, { file: 'end-return.vxml' }],
      other: {
        '/ivr/sandbox/+15550009999': [{ body: SANDBOX_ENTRY }],
        '/ivr/sandbox/+15550009999/check': [{ body: SANDBOX_AGENT }],
      },
    });
    const r = await runCall({
      startUrl: `${stub.origin}/ivr/sandbox/+15550009999`,
      startMethod: 'POST',
      startParams: { callId: 'sandbox-call-1', from: '+15550001111', to: '+15550009999' },
      inputs: ['book a table'],
      pin: '1234',
      secret: '5678',
      from: '+15550001111',
    });
    const entry = stub.requests[0];
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/ivr/sandbox/+15550009999',
      body: { callId: 'sandbox-call-1', from: '+15550001111', to: '+15550009999' },
    });
    expect(stub.requests[1]?.body).toEqual({ code: '1234', key: '5678' });
    expect(stub.hookRequests()[0]?.query).toMatchObject({ callId: 'sandbox-call-1', from: '+15550001111' });
    expect(r.transcript).toContain('🗣 #1234  (dtmf)  (auto PIN)');
    expect(r.transcript).toContain('🗣 #5678  (dtmf)  (auto secret)');
    expect(r.spoken.at(-1)).toBe('Sandbox call finished. Goodbye.');
    expect(r.ended).toBe('return');
    expect(r.result?.endOfConversation).toBe(true);
  });
});

describe('documents and the root', () => {
  it('when the agent returns endOfConversation=false, then the root goes to its #frontdesk form', async () => {
    stub = await startGatewayStub({
      hooks: [
        { file: 'bootstrap.vxml' },
        { file: 'end-return.vxml', transform: (x) => x.replace('expr="true"', 'expr="false"') },
      ],
    });
    const r = await runCall({
      rootDocument: stub.example('customer-root.vxml'),
      rootUrl: stub.origin,
      inputs: [],
    });
    expect(r.spoken).toEqual(["Thank you for calling Luigi's. Goodbye.", 'Returning you to the main menu.']);
    expect(r.transcript).toContain('📝 agent returned endOfConversation=false');
    expect(r.result?.endOfConversation).toBe(false);
    expect(r.ended).toBe('return');
  });

  it('when a submit uses method="get", then its namelist goes into the query beside the token and the body is empty', async () => {
    stub = await startGatewayStub({
      hooks: [
        { file: 'bootstrap.vxml' },
        { file: 'say-continue.vxml', transform: (x) => x.replace('method="post"', 'method="get"') },
        { file: 'end-return.vxml' },
      ],
    });
    const r = await runCall({ webhookUrl: stub.webhookUrl, inputs: [] });
    expect(stub.hookRequests()[2]).toMatchObject({
      method: 'GET',
      query: { token: TOKEN, callId: 'c0a8012e-7d41-4b6a-9f3e-5e2d1c0b9a87', turn: '3', event: 'continue' },
      body: {},
    });
    expect(r.submits[1]).toMatchObject({ method: 'GET', params: { turn: '3', event: 'continue' } });
  });
});

describe('an injected fetch', () => {
  it('when runCall is given its own fetch, then every document comes from it and relative URLs resolve against the document URL', async () => {
    const seen: string[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      seen.push(`${init?.method ?? 'GET'} ${url}`);
      const body = url.includes('/next')
        ? '<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml"><form><block><prompt>Second.</prompt><var name="endOfConversation" expr="true"/><return namelist="endOfConversation"/></block></form></vxml>'
        : '<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml"><form><block><prompt>First.</prompt><goto next="next?x=1"/></block></form></vxml>';
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/voicexml+xml' } });
    }) as typeof fetch;
    const r = await runCall({
      webhookUrl: 'https://gateway.example.com/ivr/hooks/st-x/start?token=t',
      inputs: [],
      fetch: fakeFetch,
      callId: 'k',
    });
    expect(seen[1]).toBe('GET https://gateway.example.com/ivr/hooks/st-x/next?x=1');
    expect(r.spoken).toEqual(['First.', 'Second.']);
    expect(r.result).toEqual({ endOfConversation: true });
  });
});

describe('the generated customer root and failures', () => {
  it('when a webhook URL is called, then the root passes a callId, an empty message, from, and the streamId as to', async () => {
    stub = await startGatewayStub({ hooks: [{ file: 'bootstrap.vxml' }, { file: 'end-return.vxml' }] });
    const r = await runCall({ webhookUrl: stub.webhookUrl, inputs: [], from: '+15557654321', plain: true });
    const q = stub.hookRequests()[0]?.query ?? {};
    expect(q).toMatchObject({ token: TOKEN, message: '', from: '+15557654321', to: STREAM_ID });
    expect(q.callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.transcript).toContain("SAY: Thank you for calling Luigi's. Goodbye.");
    expect(r.transcript.at(-1)).toMatch(/^CALL: call ended: return · endOfConversation=true/);
  });

  it('when nothing listens at the webhook, then the network failure is error.badfetch and the root apologises', async () => {
    stub = await startGatewayStub({ hooks: [] });
    const dead = stub.webhookUrl;
    await stub.close();
    stub = undefined;
    const r = await runCall({ webhookUrl: dead, inputs: [] });
    expect(r.events[0]).toMatchObject({ name: 'error.badfetch', caught: true });
    expect(r.fetches[0]?.error).toBeDefined();
    expect(r.spoken).toEqual(['Sorry, our assistant is not available right now. Please call again later.']);
    expect(r.ended).toBe('error');
  });

  it('when the inputs run out while a field waits, then the call fails with the field name and what was heard', async () => {
    stub = await startGatewayStub({ hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }] });
    const r = await runCall({ webhookUrl: stub.webhookUrl, inputs: [] });
    expect(r.ended).toBe('error');
    expect(r.failure).toMatch(/field "userinput".*Welcome to Luigi's/);
  });

  it('when a script expects a prompt that was not spoken, then the call fails at that line', async () => {
    stub = await startGatewayStub({
      hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }, { file: 'end-return.vxml' }],
    });
    const script = CallScript.fromText('# wrong greeting\nexpect: welcome to mario\nsay: book a table\n');
    const r = await runCall({ webhookUrl: stub.webhookUrl, inputs: script });
    expect(r.failure).toMatch(/line 2 .*expected "welcome to mario".*Welcome to Luigi's/);
    expect(stub.hookRequests()).toHaveLength(2);
  });

  it('when a script passes every expectation, then expect-end and transfer steps are checked too', async () => {
    stub = await startGatewayStub({
      hooks: [
        { file: 'bootstrap.vxml' },
        { file: 'ask-intent.vxml' },
        { file: 'transfer.vxml' },
        { file: 'end-return.vxml' },
      ],
    });
    const script = CallScript.fromText(
      [
        'expect: how can i help',
        'say: change my booking',
        'expect: reservations team',
        'transfer: busy',
        'expect: goodbye',
        'expect-end: true',
      ].join('\n'),
    );
    const r = await runCall({ webhookUrl: stub.webhookUrl, inputs: script });
    expect(r.failure).toBeUndefined();
    expect(stub.hookRequests()[3]?.body).toMatchObject({ turn: '5', transferResult: 'busy' });
  });
});

describe('a grammar-based browser, hang-ups at the top and failed fetches', () => {
  const doc = (body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><vxml version="2.1" xmlns="http://www.w3.org/2001/vxml">${body}</vxml>`;

  it.each(['strict-w3c', 'lenient'] as const)(
    'when a field has no grammar (%s), then error.semantic is raised before it listens',
    async (mode) => {
      const bare = doc(
        '<form><var name="callId"/><var name="message"/><var name="from"/><var name="to"/><field name="userinput"><prompt>Leave a message.</prompt></field></form>',
      );
      stub = await startGatewayStub({ hooks: [{ body: bare }] });
      const r = await runCall({ webhookUrl: stub.webhookUrl, mode, inputs: ['hello there'] });
      expect(r.events.map((e) => e.name)).toContain('error.semantic');
      expect(r.error).toMatch(/No grammars defined for the input of form item "userinput"/);
      expect(r.ended).toBe('error');
    },
  );

  it('when a record item listens, then speech is the recording and its duration is set; silence is noinput', async () => {
    const recorder = doc(
      '<form><var name="callId"/><var name="message"/><var name="from"/><var name="to"/>' +
        '<record name="note" maxtime="60s"><prompt>After the tone.</prompt>' +
        '<noinput><prompt>I heard nothing.</prompt><reprompt/></noinput>' +
        '<filled><var name="ms" expr="note$.duration"/><return namelist="ms"/></filled></record></form>',
    );
    stub = await startGatewayStub({ hooks: [{ body: recorder }] });
    const r = await runCall({
      webhookUrl: stub.webhookUrl,
      mode: 'strict-w3c',
      inputs: ['!noinput', 'please call me back tomorrow'],
    });
    expect(r.spoken.slice(0, 3)).toEqual(['After the tone.', 'I heard nothing.', 'After the tone.']);
    expect(r.result?.ms).toBe('please call me back tomorrow'.length * 80);
  });

  it('when the browser delivers the hang-up to the top only, then the agent document does not hear it and the root reports it with <data>', async () => {
    stub = await startGatewayStub({
      hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }, { file: 'end-return.vxml' }],
    });
    const r = await runCall({
      webhookUrl: stub.webhookUrl,
      mode: 'strict-w3c',
      inputs: ['!hangup'],
      callId: 'c-top',
      hangupDelivery: 'top',
    });
    const hooks = stub.hookRequests();
    expect(hooks).toHaveLength(3);
    // the ask document's own hangup catch would submit callId turn event; the root sends callId and event only
    expect(hooks[2]).toMatchObject({ method: 'POST', body: { callId: 'c-top', event: 'hangup' } });
    expect(r.fetches.at(-1)).toMatchObject({ kind: 'data', status: 200 });
    expect(r.ended).toBe('disconnect');
  });

  it('when the hang-up reaches the running document (the default), then the root does not report it again', async () => {
    stub = await startGatewayStub({
      hooks: [{ file: 'bootstrap.vxml' }, { file: 'ask-intent.vxml' }, { file: 'end-return.vxml' }],
    });
    await runCall({
      webhookUrl: stub.webhookUrl,
      mode: 'strict-w3c',
      inputs: ['!hangup'],
      callId: 'c-inner',
    });
    const hooks = stub.hookRequests();
    expect(hooks.map((h) => h.body.event)).toEqual([undefined, undefined, 'hangup']);
    expect(hooks[2]?.body.turn).toBe('1');
  });

  it("when a submit fails, then the gateway document's error.badfetch catch resends the same values after a pause and the call goes on", async () => {
    const say = renderDocument(samples.say);
    stub = await startGatewayStub({
      hooks: [
        { body: say },
        { status: 503, body: 'down' },
        { body: 'reset', status: 502 },
        { file: 'end-return.vxml' },
      ],
    });
    const r = await runCall({
      webhookUrl: stub.webhookUrl,
      mode: 'strict-w3c',
      inputs: [],
      callId: 'c-resend',
    });
    const submits = stub
      .hookRequests()
      .slice(1)
      .map((h) => h.body);
    expect(submits).toHaveLength(3);
    expect(new Set(submits.map((b) => JSON.stringify(b))).size).toBe(1);
    // the root's callId param landed in the say document's form variable, and is what it sends
    expect(submits[0]).toEqual({ callId: 'c-resend', turn: '3', event: 'continue' });
    expect(r.events.filter((e) => e.name.startsWith('error.badfetch')).map((e) => e.caught)).toEqual([
      true,
      true,
    ]);
    expect(r.result?.endOfConversation).toBe(true);
  });

  it('when a submit keeps failing, then after two resends the apology plays and the agent returns fetch_failed', async () => {
    const say = renderDocument(samples.say);
    stub = await startGatewayStub({
      hooks: [{ body: say }, { status: 503 }, { status: 503 }, { status: 503 }, { file: 'end-return.vxml' }],
    });
    const r = await runCall({ webhookUrl: stub.webhookUrl, mode: 'strict-w3c', inputs: [] });
    expect(stub.hookRequests()).toHaveLength(4);
    expect(r.spoken.at(-1)).toBe('Sorry, something went wrong on our side. Please try again later.');
    expect(r.result).toEqual({ endOfConversation: true, error: 'fetch_failed' });
  });
});

describe('the customer root snippet', () => {
  it("when docs/voicexml.md's snippet is compared with the root the caller generates, then they are the same, valid document", async () => {
    const readme = readFileSync(new URL('../../docs/voicexml.md', import.meta.url), 'utf8');
    const block = /<!-- customer-root:start -->\n```xml\n([\s\S]*?)```\n<!-- customer-root:end -->/.exec(
      readme,
    )?.[1];
    const generated = customerRootDocument({
      webhookUrl: 'https://ivr.example.com/ivr/hooks/st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d?token=TOKEN',
      callId: 'c0a8012e-7d41-4b6a-9f3e-5e2d1c0b9a87',
      from: '+14155550123',
    });
    expect(block).toBe(generated);
    expect(generated).toContain('<catch event="connection.disconnect.hangup" cond="returned == false">');
    await assertValidVxml([generated]);
  });
});
