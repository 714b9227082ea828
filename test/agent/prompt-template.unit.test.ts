import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parsePromptTemplate,
  parseTextTemplate,
  promptToText,
  renderPrompt,
  renderText,
  placeholderProblems,
} from '../../src/agent/prompt-template.js';

const scope = (extra: Record<string, unknown> = {}) => ({
  context: {
    entities: { city: 'Rome', size: 4 },
    answer: 'We open at noon.',
    from: '+15551230000',
    ...extra,
  },
  session: { BotUserSession: { lastMessage: { text: 'hello' } } },
  entities: { city: 'Rome', size: 4 },
});

const render = (src: string, root: unknown = scope()) => renderPrompt(parsePromptTemplate(src), root);

describe('prompt templates', () => {
  it('when text has no markup, then it is one text part', () => {
    expect(render("Welcome to Luigi's.")).toEqual([{ type: 'text', text: "Welcome to Luigi's." }]);
  });

  it('when allowed SSML is authored, then it becomes explicit parts', () => {
    const parts = render(
      'Hi<break time="300ms" strength="weak"/><emphasis level="strong">now</emphasis>' +
        '<say-as interpret-as="telephone" format="1">{{context.from}}</say-as>' +
        '<prosody rate="slow" pitch="+10%" volume="loud">calm</prosody><audio src="https://x.test/a.wav">beep</audio>',
    );
    expect(parts).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'break', time: '300ms', strength: 'weak' },
      { type: 'emphasis', level: 'strong', parts: [{ type: 'text', text: 'now' }] },
      { type: 'say-as', interpretAs: 'telephone', format: '1', text: '+15551230000' },
      {
        type: 'prosody',
        rate: 'slow',
        pitch: '+10%',
        volume: 'loud',
        parts: [{ type: 'text', text: 'calm' }],
      },
      { type: 'audio', src: 'https://x.test/a.wav', parts: [{ type: 'text', text: 'beep' }] },
    ]);
  });

  it('when a tag is not allowed, then it is kept as literal text', () => {
    expect(render('Go <goto next="http://evil"/> now')).toEqual([
      { type: 'text', text: 'Go <goto next="http://evil"/> now' },
    ]);
    expect(render('<script>alert(1)</script>')).toEqual([
      { type: 'text', text: '<script>alert(1)</script>' },
    ]);
  });

  it('when markup is malformed, then the whole text is literal', () => {
    expect(render('Hello <break time="1s"> there')).toEqual([
      { type: 'text', text: 'Hello <break time="1s"> there' },
    ]);
  });

  it('when prose contains & or <, then it stays text', () => {
    expect(render('Fish & chips < 10 euros')).toEqual([{ type: 'text', text: 'Fish & chips < 10 euros' }]);
  });

  it('when an attribute value is not allowed, then the attribute is dropped', () => {
    expect(render('<break time="forever" strength="huge"/>')).toEqual([{ type: 'break' }]);
    expect(render('<audio src="javascript:alert(1)">fallback</audio>')).toEqual([
      { type: 'text', text: 'fallback' },
    ]);
  });

  it('when placeholders are filled, then values are text and missing ones are empty', () => {
    expect(
      render(
        'A table for {{context.entities.size}} in {{context.entities.city}}{{context.entities.nothing}}.',
      ),
    ).toEqual([{ type: 'text', text: 'A table for 4 in Rome.' }]);
    expect(render('{{context.answer}}')).toEqual([{ type: 'text', text: 'We open at noon.' }]);
  });

  it('when a filled value is hostile markup, then it stays one plain text part', () => {
    const hostile = '</prompt><goto next="http://evil"/>';
    const parts = render('{{context.answer}}', scope({ answer: hostile }));
    expect(parts).toEqual([{ type: 'text', text: hostile }]);
    const inside = render('<emphasis>{{context.answer}}</emphasis>', scope({ answer: hostile }));
    expect(inside).toEqual([{ type: 'emphasis', parts: [{ type: 'text', text: hostile }] }]);
  });

  it('when a placeholder reaches for prototypes, then nothing is found', () => {
    expect(render('[{{context.constructor}}][{{context.entities.__proto__}}]')).toEqual([
      { type: 'text', text: '[][]' },
    ]);
  });

  it('when a placeholder does not parse, then it is reported and kept literal', () => {
    expect(placeholderProblems('Hi {{context.entities.}} and {{ nope }} and {{context.x')).toHaveLength(3);
    expect(placeholderProblems('Hi {{ context.entities.size }}')).toEqual([]);
  });

  it('when a text template is filled, then no markup is parsed', () => {
    const t = parseTextTemplate('Q: {{session.BotUserSession.lastMessage.text}} <b>');
    expect(renderText(t, scope())).toBe('Q: hello <b>');
  });

  it('when parts are turned into text, then breaks become spaces and whitespace collapses', () => {
    expect(promptToText(render('One.<break time="300ms"/>Two  <emphasis>three</emphasis>'))).toBe(
      'One. Two three',
    );
  });

  it('when text holds any kind of whitespace, then it collapses exactly as \\s+ to one space and trim', () => {
    const chars = [
      ...' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u200bab.',
    ];
    const text = fc.array(fc.constantFrom(...chars), { maxLength: 12 }).map((cs) => cs.join(''));
    const part = fc.oneof(
      text.map((t) => ({ type: 'text' as const, text: t })),
      fc.constant({ type: 'break' as const }),
      text.map((t) => ({ type: 'emphasis' as const, parts: [{ type: 'text' as const, text: t }] })),
    );
    for (const c of chars)
      expect(promptToText([{ type: 'text', text: `a${c}b` }])).toBe(`a${c}b`.replace(/\s+/g, ' '));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const flat = parts
          .map((p) => (p.type === 'text' ? p.text : p.type === 'break' ? ' ' : p.parts[0]!.text))
          .join('');
        expect(promptToText(parts)).toBe(flat.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('when a template has no placeholder, then renders do not share parts', () => {
    const t = parsePromptTemplate('Hello');
    const a = renderPrompt(t, {});
    (a[0] as { text: string }).text = 'changed';
    expect(renderPrompt(t, {})).toEqual([{ type: 'text', text: 'Hello' }]);
    const nested = parsePromptTemplate('<prosody rate="slow"><emphasis>Hi</emphasis></prosody>');
    const b = renderPrompt(nested, {});
    const inner = (b[0] as { parts: { parts: { text: string }[] }[] }).parts[0]!;
    inner.parts[0]!.text = 'changed';
    inner.parts.push({ text: 'more' });
    expect(renderPrompt(nested, {})).toEqual([
      { type: 'prosody', rate: 'slow', parts: [{ type: 'emphasis', parts: [{ type: 'text', text: 'Hi' }] }] },
    ]);
  });
});
