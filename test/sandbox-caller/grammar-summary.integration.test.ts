/**
 * What the web caller shows of a listening field: its grammars described for a person (sample
 * phrases of SRGS, what a builtin takes), and typed speech that carries its own confidence.
 */
import { describe, expect, it } from 'vitest';
import { describeGrammar, GrammarMatcher } from '../../sandbox/grammar-matcher.js';
import { parseXmlTree } from '../../sandbox/xml-tree.js';

const field = (inner: string) => parseXmlTree(`<field name="f">${inner}</field>`);
const matcher = () =>
  new GrammarMatcher({
    mode: 'lenient',
    confidence: 0.9,
    fetchText: () => Promise.reject(new Error('no fetch here')),
  });

const SRGS = `<grammar mode="voice" root="r" version="1.0" xmlns="http://www.w3.org/2001/06/grammar">
  <rule id="r"><item repeat="0-1">please</item><one-of><item>book a table</item><item>opening hours</item></one-of><ruleref uri="#end"/></rule>
  <rule id="end"><one-of><item>now</item><item><ruleref special="NULL"/></item></one-of></rule>
</grammar>`;

describe('grammars described for the web caller', () => {
  it('when an SRGS grammar has alternatives, an optional word and a rule reference, then its sample phrases list each way, shortest first', async () => {
    const [g] = await matcher().compile(field(SRGS), undefined);
    const summary = describeGrammar(g!);
    expect(summary).toMatchObject({ label: 'inline SRGS', mode: 'voice' });
    expect(summary.phrases.slice(0, 4)).toEqual([
      'book a table now',
      'book a table',
      'opening hours now',
      'opening hours',
    ]);
    expect(summary.phrases).toContain('please book a table now');
  });

  it('when a field has a builtin type and options, then the builtins say what they take and the options list their words and keys', async () => {
    const gs = await matcher().compile(
      field(
        '<grammar src="builtin:dtmf/digits?length=4"/><option dtmf="1" value="y">yes</option><option dtmf="2" value="n">no</option>',
      ),
      undefined,
    );
    expect(gs.map(describeGrammar)).toEqual([
      { label: 'builtin:dtmf/digits?length=4', mode: 'dtmf', phrases: ['digits (4 of them)'] },
      { label: '<option>s', mode: 'voice', phrases: ['yes', 'no'] },
      { label: '<option> keys', mode: 'dtmf', phrases: ['1', '2'] },
    ]);
  });

  it('when typed speech carries a confidence, then the recognition reports it instead of the configured one', async () => {
    const m = matcher();
    const gs = await m.compile(field(SRGS), undefined);
    expect(m.recognize(gs, { kind: 'speech', text: 'opening hours', confidence: 0.3 })?.confidence).toBe(0.3);
    expect(m.recognize(gs, { kind: 'speech', text: 'opening hours' })?.confidence).toBe(0.9);
  });
});
