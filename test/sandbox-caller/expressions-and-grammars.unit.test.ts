/**
 * Units of the interpreter: the ECMAScript subset evaluated with jexl, SSML rendering, SRGS expansion
 * with SISR tags, the builtin grammars, and the lenient/strict recognition rules.
 */
import { describe, expect, it } from 'vitest';
import { parseCallerInput } from '../../sandbox/index.js';
import { parseCallScript } from '../../sandbox/call-script.js';
import { ExpressionEvaluator } from '../../sandbox/expression-evaluator.js';
import { GrammarMatcher, type InterpreterMode } from '../../sandbox/grammar-matcher.js';
import { ScopeChain } from '../../sandbox/scope-chain.js';
import { ssmlText } from '../../sandbox/ssml-text.js';
import { VxmlEvent } from '../../sandbox/vxml-event.js';
import { parseXmlTree } from '../../sandbox/xml-tree.js';

function scopes(): ScopeChain {
  const session = new ScopeChain('session');
  const document = new ScopeChain('document', new ScopeChain('application', session));
  document.declare('turn', '2');
  document.declare('callId', 'c-1');
  const dialog = new ScopeChain('dialog', document);
  dialog.declare('userinput$', { utterance: 'check my booking', confidence: 0.9, inputmode: 'voice' });
  dialog.declare('bot', { endOfConversation: true });
  dialog.declare('nothing', undefined);
  return dialog;
}

const ev = new ExpressionEvaluator();
const semantic = (expr: string): VxmlEvent => {
  try {
    ev.evaluate(expr, scopes());
  } catch (err) {
    if (err instanceof VxmlEvent) return err;
    throw err;
  }
  throw new Error(`no error for ${expr}`);
};

describe('ECMAScript expressions', () => {
  it('when the subset the gateway emits is evaluated, then it gives ECMAScript values', () => {
    const s = scopes();
    expect(ev.evaluate("'2'", s)).toBe('2');
    expect(ev.evaluate("turn == '2'", s)).toBe(true);
    expect(ev.evaluate('turn === 2', s)).toBe(false);
    expect(ev.evaluate('userinput$.utterance', s)).toBe('check my booking');
    expect(ev.evaluate("'agent returned endOfConversation=' + bot.endOfConversation", s)).toBe(
      'agent returned endOfConversation=true',
    );
    expect(ev.evaluate('bot.endOfConversation == true', s)).toBe(true);
    expect(ev.evaluate("document.callId + '/' + turn", s)).toBe('c-1/2');
    expect(ev.evaluate("'it\\'s ' + (1 + 2 * 3)", s)).toBe("it's 7");
    expect(ev.evaluate("typeof missing == 'undefined' && !false", s)).toBe(true);
    expect(ev.evaluate("nothing ? 'yes' : 'no'", s)).toBe('no');
    expect(ev.evaluate("'Abc'.toLowerCase().length", s)).toBe(3);
  });

  it('when an expression reads an undeclared variable or a property of undefined, then error.semantic is raised', () => {
    expect(semantic('missing').eventName).toBe('error.semantic');
    expect(semantic('nothing.endOfConversation').eventMessage).toMatch(/undefined/);
    expect(ev.evaluate('false && missing', scopes())).toBe(false);
  });

  it('when an expression is outside the subset, then error.semantic is raised and nothing is executed', () => {
    for (const expr of [
      'x = 1',
      'turn += 1',
      'function () { return 1 }',
      "new Function('return 1')",
      '{ a: 1 }',
      'a; b',
      "'x'.constructor('y')",
      'process.exit()',
      '',
    ]) {
      expect(semantic(expr).eventName, expr).toBe('error.semantic');
    }
  });
});

describe('SSML prompts', () => {
  it('when a prompt has breaks, values and other SSML, then the text is kept and breaks become a pause marker', () => {
    const prompt = parseXmlTree(
      `<prompt>Welcome.<break time="300ms"/>Booking <say-as interpret-as="digits"><value expr="turn"/></say-as>, <emphasis>really</emphasis> <sub alias="eight PM">8pm</sub>.<audio src="x.wav"/></prompt>`,
    );
    expect(ssmlText(prompt.children, (e) => ev.evaluate(e, scopes()))).toBe(
      'Welcome. … Booking 2, really eight PM. [audio x.wav]',
    );
  });
});

function field(xml: string): ReturnType<typeof parseXmlTree> {
  return parseXmlTree(`<field name="f">${xml}</field>`);
}

function matcher(mode: InterpreterMode, confidence = 0.9): GrammarMatcher {
  return new GrammarMatcher({ mode, confidence, fetchText: () => Promise.reject(new Error('no network')) });
}

const INTENTS = `<grammar type="application/srgs+xml" version="1.0" mode="voice" root="intents" tag-format="semantics/1.0">
  <rule id="intents" scope="public"><one-of>
    <item>book a table<tag>out="BookTable";</tag></item>
    <item><ruleref uri="#polite"/> check my booking<tag>out='CheckBooking'</tag></item>
    <item>table for <one-of><item>two<tag>out.size=2;</tag></item><item>four<tag>out.size=4;</tag></item></one-of></item>
  </one-of></rule>
  <rule id="polite"><item repeat="0-1">please</item></rule>
</grammar>`;

describe('grammars', () => {
  it('when an inline SRGS grammar with SISR tags matches, then the interpretation is the tag value', async () => {
    const m = matcher('strict-w3c');
    const g = await m.compile(field(INTENTS), undefined);
    expect(m.recognize(g, { kind: 'speech', text: 'Book a table.' })?.interpretation).toBe('BookTable');
    expect(m.recognize(g, { kind: 'speech', text: 'please check my booking' })?.interpretation).toBe(
      'CheckBooking',
    );
    expect(m.recognize(g, { kind: 'speech', text: 'check my booking' })?.interpretation).toBe('CheckBooking');
    expect(m.recognize(g, { kind: 'speech', text: 'table for four' })?.interpretation).toEqual({ size: 4 });
    expect(m.recognize(g, { kind: 'speech', text: 'book a table now' })).toBeUndefined();
    expect(m.recognize(g, { kind: 'dtmf', digits: '1' })).toBeUndefined();
  });

  it('when a grammar computes its value with SISR scripts (rules.latest(), compound assignment, var, unbounded repeat), then the script result is the interpretation', async () => {
    const numbers = `<grammar mode="voice" root="n" tag-format="semantics/1.0">
      <rule id="n"><one-of>
        <item>zero<tag>out=0;</tag></item>
        <item><ruleref uri="#n99"/><tag>out=rules.latest();</tag>
          <item repeat="0-1">hundred<tag>out*=100;</tag><item repeat="0-1"><item repeat="0-1">and</item><ruleref uri="#n99"/><tag>out+=rules.latest();</tag></item></item></item>
      </one-of></rule>
      <rule id="units"><one-of><item>one<tag>out=1;</tag></item><item>two<tag>out=2;</tag></item><item>four<tag>out=4;</tag></item></one-of></rule>
      <rule id="tens"><one-of><item>twenty<tag>out=20;</tag></item><item>forty<tag>out=40;</tag></item></one-of></rule>
      <rule id="n99"><one-of><item><ruleref uri="#units"/><tag>out=rules.latest();</tag></item>
        <item><ruleref uri="#tens"/><tag>out=rules.latest();</tag><item repeat="0-1"><ruleref uri="#units"/><tag>out+=rules.latest();</tag></item></item></one-of></rule>
    </grammar>`;
    const keys = `<grammar mode="dtmf" root="k"><rule id="k"><tag>var acc='';</tag><item repeat="1-"><ruleref uri="#d"/><tag>acc+=rules.latest();</tag></item><tag>out=Number(acc)*2;</tag></rule>
      <rule id="d"><one-of><item>1</item><item>2</item><item>3</item></one-of></rule></grammar>`;
    const m = matcher('strict-w3c');
    const g = await m.compile(field(numbers + keys), undefined);
    expect(m.recognize(g, { kind: 'speech', text: 'forty two' })?.interpretation).toBe(42);
    expect(m.recognize(g, { kind: 'speech', text: 'two hundred and twenty one' })?.interpretation).toBe(221);
    expect(m.recognize(g, { kind: 'speech', text: 'zero' })?.interpretation).toBe(0);
    expect(m.recognize(g, { kind: 'dtmf', digits: '1231' })?.interpretation).toBe(2462);
    expect(m.recognize(g, { kind: 'speech', text: 'forty forty' })).toBeUndefined();
  });

  it('when lenient recognition gets a longer utterance, then the longest phrase that prefixes it matches', async () => {
    const m = matcher('lenient');
    const g = await m.compile(field(INTENTS), undefined);
    expect(m.recognize(g, { kind: 'speech', text: 'Book a table now' })).toMatchObject({
      interpretation: 'BookTable',
      utterance: 'Book a table now',
      confidence: 0.9,
    });
  });

  it('when builtin digits and boolean grammars get keys or words, then their parameters and modes are honoured', async () => {
    const m = matcher('strict-w3c');
    const g = await m.compile(
      field(
        '<grammar src="builtin:dtmf/digits?minlength=4;maxlength=6"/><grammar src="builtin:grammar/boolean"/>',
      ),
      undefined,
    );
    expect(m.recognize(g, { kind: 'dtmf', digits: '123' })).toBeUndefined();
    expect(m.recognize(g, { kind: 'dtmf', digits: '1234' })).toMatchObject({
      interpretation: '1234',
      inputmode: 'dtmf',
      confidence: 1,
    });
    expect(m.recognize(g, { kind: 'speech', text: 'yes' })?.interpretation).toBe(true);
    expect(m.recognize(g, { kind: 'speech', text: 'nope' })?.interpretation).toBe(false);
    expect(m.recognize(g, { kind: 'speech', text: '1234' })).toBeUndefined();
    const typed = await m.compile(parseXmlTree('<field name="b" type="boolean"/>'), undefined);
    expect(m.recognize(typed, { kind: 'dtmf', digits: '2' })?.interpretation).toBe(false);
  });

  it('when number or transcribe builtins are compiled, then lenient accepts them and strict-w3c raises error.badfetch', async () => {
    const lenient = matcher('lenient');
    const g = await lenient.compile(
      field('<grammar src="builtin:grammar/number"/><grammar src="builtin:speech/transcribe"/>'),
      undefined,
    );
    expect(lenient.recognize(g, { kind: 'speech', text: 'forty two' })?.interpretation).toBe(42);
    expect(lenient.recognize(g, { kind: 'speech', text: 'anything at all' })?.interpretation).toBe(
      'anything at all',
    );
    for (const src of ['builtin:grammar/number', 'builtin:speech/transcribe', 'builtin:grammar/date']) {
      await expect(
        matcher('strict-w3c').compile(field(`<grammar src="${src}"/>`), undefined),
      ).rejects.toMatchObject({ eventName: 'error.badfetch' });
    }
  });

  it("when a dialect's browser is emulated, then only the builtins it has compile, in either mode, and the others raise error.badfetch", async () => {
    // a Cisco VVB-like browser: no voice builtins, DTMF digits and boolean, transcription through its engine
    const vvb = { voice: [], dtmf: ['boolean', 'digits'], transcription: true };
    for (const mode of ['lenient', 'strict-w3c'] as const) {
      const m = new GrammarMatcher({
        mode,
        builtins: vvb,
        confidence: 0.9,
        fetchText: () => Promise.reject(new Error('no network')),
      });
      const keys = await m.compile(
        field('<grammar src="builtin:dtmf/digits?length=4"/><grammar src="builtin:speech/transcribe"/>'),
        undefined,
      );
      expect(m.recognize(keys, { kind: 'dtmf', digits: '1234' })?.interpretation).toBe('1234');
      expect(m.recognize(keys, { kind: 'speech', text: 'next tuesday' })?.interpretation).toBe(
        'next tuesday',
      );
      for (const src of ['builtin:voice/digits', 'builtin:grammar/boolean', 'builtin:grammar/number']) {
        await expect(m.compile(field(`<grammar src="${src}"/>`), undefined)).rejects.toMatchObject({
          eventName: 'error.badfetch',
          message: expect.stringContaining('voice builtins are none'),
        });
      }
    }
    // a JVoiceXML-like browser: digits and boolean, no transcription
    const jvx = new GrammarMatcher({
      mode: 'lenient',
      builtins: { voice: ['boolean', 'digits'], dtmf: ['boolean', 'digits'], transcription: false },
      confidence: 0.9,
      fetchText: () => Promise.reject(new Error('no network')),
    });
    await expect(
      jvx.compile(field('<grammar src="builtin:speech/transcribe"/>'), undefined),
    ).rejects.toMatchObject({
      eventName: 'error.badfetch',
      message: expect.stringContaining('no transcription'),
    });
    expect(await jvx.compile(field('<grammar src="builtin:voice/boolean"/>'), undefined)).toHaveLength(1);
  });

  it('when a grammar URI cannot be fetched, then compiling raises error.badfetch', async () => {
    await expect(
      matcher('lenient').compile(field('<grammar src="menu.grxml"/>'), 'http://127.0.0.1:9/doc.vxml'),
    ).rejects.toMatchObject({ eventName: 'error.badfetch' });
  });
});

describe('caller inputs and scripts', () => {
  it('when input tokens and script lines are parsed, then speech, DTMF, silence, hang-up and expectations are told apart', () => {
    expect(parseCallerInput('#4567')).toEqual({ kind: 'dtmf', digits: '4567' });
    expect(parseCallerInput('!noinput')).toEqual({ kind: 'noinput' });
    expect(parseCallerInput('!hangup')).toEqual({ kind: 'hangup' });
    expect(parseCallerInput('book a table')).toEqual({ kind: 'speech', text: 'book a table' });
    const steps = parseCallScript(
      '# c\nsay: book a table\ndtmf: 4567\nnoinput\nhangup\nexpect: Welcome\nexpect-end: true\n',
    );
    expect(steps.map((s) => s.kind)).toEqual(['input', 'input', 'input', 'input', 'expect', 'expect-end']);
    expect(steps[0]?.line).toBe(2);
    expect(() => parseCallScript('shout: hello')).toThrow(/line 1: unknown step/);
  });
});
