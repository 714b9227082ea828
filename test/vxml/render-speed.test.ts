/**
 * A micro-measure of rendering time, printed only (time is never asserted: the machine is shared).
 */
import { describe, it, expect } from 'vitest';
import { buildIntentGrammar, renderDocument, type VxmlDocument } from '../../src/vxml/index.js';
import { askIntent, extraSamples, samples } from './sample-documents.js';

function intentsOf(n: number, perIntent: number) {
  return Array.from({ length: n }, (_, i) => ({ name: `Intent${i}`, utterances: Array.from({ length: perIntent }, (_, j) => `please help me with topic ${i} in way ${j}`) }));
}

function measure(doc: VxmlDocument, runs = 2000): { wall: number; cpu: number; bytes: number } {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let xml = '';
  for (let i = 0; i < runs; i++) xml = renderDocument(doc);
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / runs;
  const c = process.cpuUsage(cpu0);
  return { wall, cpu: (c.user + c.system) / runs, bytes: Buffer.byteLength(xml) };
}

describe('render speed (printed, not asserted)', () => {
  it('when documents are rendered repeatedly, then the µs per document are printed', () => {
    const cases: Record<string, VxmlDocument> = {
      'ask (4 intent phrases)': askIntent,
      'ask (50 intent phrases)': { ...askIntent, grammars: [buildIntentGrammar(intentsOf(10, 5))] },
      'ask (500 intent phrases)': { ...askIntent, grammars: [buildIntentGrammar(intentsOf(25, 20))] },
      'ask (number entity)': extraSamples['ask-entity']!,
      ...Object.fromEntries(Object.entries(samples).filter(([k]) => k !== 'ask')),
    };
    const cold = process.hrtime.bigint();
    renderDocument({ ...askIntent, grammars: [buildIntentGrammar(intentsOf(9, 7))] });
    const coldUs = Number(process.hrtime.bigint() - cold) / 1000;
    for (const doc of Object.values(cases)) for (let i = 0; i < 1000; i++) renderDocument(doc);
    const miss = process.hrtime.bigint();
    renderDocument({ ...askIntent, grammars: [buildIntentGrammar(intentsOf(9, 8))] });
    const missUs = Number(process.hrtime.bigint() - miss) / 1000;
    const lines = Object.entries(cases).map(([name, doc]) => {
      const m = measure(doc);
      return `${name.padEnd(26)} ${m.wall.toFixed(1).padStart(7)} µs wall ${m.cpu.toFixed(1).padStart(7)} µs cpu ${String(m.bytes).padStart(6)} bytes`;
    });
    console.log(
      [
        'VXML render speed (per document, after warm-up):',
        ...lines,
        `first render in a cold process (new 63-phrase grammar): ${coldUs.toFixed(0)} µs`,
        `warm render with a grammar not seen before (72 phrases, buildIntentGrammar included): ${missUs.toFixed(0)} µs`,
      ].join('\n'),
    );
    expect(lines.length).toBe(Object.keys(cases).length);
  });
});
