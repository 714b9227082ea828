/**
 * The streaming writer under the typed builders (builder-core.ts): documents are written in document
 * order, empty elements are self-closed, and content for an element that was already closed is a bug
 * that throws instead of landing in the wrong place.
 */
import { describe, it, expect } from 'vitest';
import { XmlWriter, prettyXml } from '../../src/vxml/builder-core.js';
import { VxmlBuilder } from '../../src/vxml/vxml-builder.js';
import { js } from '../../src/vxml/ecma-string.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';

describe('XmlWriter', () => {
  it('when elements nest and siblings follow, then each is closed before the next opens, empty ones as <x/>', () => {
    const w = new XmlWriter(true);
    const root = w.open(0, 'a', { k: 'v', skipped: undefined }, 'urn:x');
    const b = w.open(root, 'b', undefined);
    w.text(b, 'one');
    w.open(b, 'c', { n: '1' });
    w.open(root, 'd', {});
    w.text(root, 'tail');
    expect(w.end()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><a xmlns="urn:x" k="v"><b>one<c n="1"/></b><d/>tail</a>',
    );
  });

  it('when content is added to an element that was already closed, then the writer throws', () => {
    const w = new XmlWriter(false);
    const root = w.open(0, 'a', undefined);
    const first = w.open(root, 'b', undefined);
    w.open(root, 'c', undefined);
    expect(() => w.text(first, 'late')).toThrow(/already closed/);
    expect(() => w.open(first, 'x', undefined)).toThrow(/already closed/);
  });

  it('when the document was ended, then nothing more can be written', () => {
    const w = new XmlWriter(false);
    const root = w.open(0, 'a', undefined);
    expect(w.end()).toBe('<a/>');
    expect(w.end()).toBe('<a/>');
    expect(() => w.text(root, 'x')).toThrow(/finished/);
  });

  it('when empty text is written, then the element stays empty', () => {
    const w = new XmlWriter(false);
    const root = w.open(0, 'a', undefined);
    w.text(root, '\u0000');
    expect(w.end()).toBe('<a/>');
  });

  it('when a typed builder goes back to a form item after starting the next one, then it throws rather than misplace content', () => {
    const b = VxmlBuilder.document('en-US');
    const form = b.form('f');
    const block = form.block();
    form.var('later', js`1`);
    expect(() => block.prompt().text('too late')).toThrow(/already closed/);
  });

  it('when a compact document is indented for people, then xmlbuilder2 re-serializes it and it still validates', async () => {
    const b = VxmlBuilder.document('en-US');
    b.form('f').block().prompt().text('Hello & <goodbye>');
    const pretty = prettyXml(b.toXml());
    expect(pretty).toContain('\n  <form id="f">');
    expect(pretty).toContain('Hello &amp; &lt;goodbye&gt;');
    await assertValidVxml([pretty]);
  });
});
