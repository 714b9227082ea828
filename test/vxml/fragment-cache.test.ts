/**
 * The builder's fragment cache (builder-core.ts): reuse never changes the output, and the cache stays
 * bounded however many distinct grammars and handlers pass through it.
 */
import { describe, it, expect } from 'vitest';
import { buildIntentGrammar, renderDocument } from '../../src/vxml/index.js';
import { fragmentCacheStats } from '../../src/vxml/builder-core.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { askIntent, text } from './sample-documents.js';
import { canonical, parseXml } from './xml-tree.js';

describe('fragment cache', () => {
  it('when a document is rendered on a cache miss and again on a hit, then both are identical and match the uncached tree', async () => {
    const doc = { ...askIntent, noMatchPrompt: [text(`unique ${Date.now()} & <more>`)], grammars: [buildIntentGrammar([{ name: 'X', utterances: [`fresh ${Math.random()}`] }])] };
    const miss = renderDocument(doc);
    const hit = renderDocument(doc);
    expect(hit).toBe(miss);
    expect(canonical(parseXml(miss))).toEqual(canonical(parseXml(renderDocument(doc, { pretty: true }))));
    await assertValidVxml([miss]);
  });

  it('when equal grammars arrive as new objects each turn, then they render the same', () => {
    const a = renderDocument({ ...askIntent, grammars: [buildIntentGrammar([{ name: 'A', utterances: ['one', 'two'] }])] });
    const b = renderDocument({ ...askIntent, grammars: [buildIntentGrammar([{ name: 'A', utterances: ['one', 'two'] }])] });
    expect(b).toBe(a);
  });

  it('when documents alternate between submit targets, then each carries its own, also after the submit memo was emptied', () => {
    const submitsOf = (xml: string) => [...xml.matchAll(/<submit next="([^"]*)"(?: fetchtimeout="([^"]*)")?/g)].map((m) => `${m[1]} ${m[2] ?? '-'}`);
    const render = (url: string, fetchtimeout?: string) => renderDocument({ ...askIntent, submit: { url, ...(fetchtimeout ? { fetchtimeout } : {}) } });
    const a = 'https://gw.example.com/ivr/hooks/st-a?token=aaa';
    const b = 'https://gw.example.com/ivr/hooks/st-b?token=bbb';
    for (let round = 0; round < 2; round++) {
      expect(new Set(submitsOf(render(a)))).toEqual(new Set([`${a} -`]));
      expect(new Set(submitsOf(render(b, '7s')))).toEqual(new Set([`${b} 7s`]));
      expect(new Set(submitsOf(render(a, '9s')))).toEqual(new Set([`${a} 9s`]));
      // more distinct targets than the memo keeps: it is emptied, and the next round starts afresh
      for (let i = 0; i < 1_100; i++) expect(submitsOf(render(`https://gw.example.com/ivr/hooks/st-${i}`))[0]).toBe(`https://gw.example.com/ivr/hooks/st-${i} -`);
    }
  });

  it('when hundreds of distinct grammars and prompts are rendered, then the cache stays within its bounds', () => {
    for (let i = 0; i < 700; i++) {
      renderDocument({
        ...askIntent,
        noInputPrompt: [text(`prompt ${i}`)],
        grammars: [buildIntentGrammar([{ name: `I${i}`, utterances: Array.from({ length: 50 }, (_, j) => `phrase ${i} number ${j} with some words`) }])],
      });
    }
    const stats = fragmentCacheStats();
    expect(stats.entries).toBeLessThanOrEqual(512);
    expect(stats.chars).toBeLessThanOrEqual(4_000_000);
  });
});
