import { describe, expect, it } from 'vitest';
import { fillPayloadTemplate } from '../../src/connections/payload-template.js';
import { readJsonPath } from '../../src/connections/json-path-reader.js';

const v = (name: string, defaultValue: string) => ({
  name,
  displayName: name,
  status: true,
  dataType: 'string',
  elementType: 'text',
  defaultValue,
  required: false,
});

describe('payload template', () => {
  it('when placeholders are in string values, then they are replaced there only, never in keys or re-scanned', () => {
    const payload = {
      model: 'm',
      '{{prompt}}': 'key stays',
      meta: { tags: ['{{tone}}', 3, true, null] },
      messages: [{ role: 'user', content: 'Q: {{ prompt }}' }],
    };
    const out = fillPayloadTemplate(payload, [v('tone', 'calm')], { prompt: '"quoted" {{tone}} \\ }' });
    expect(out).toEqual({
      model: 'm',
      '{{prompt}}': 'key stays',
      meta: { tags: ['calm', 3, true, null] },
      messages: [{ role: 'user', content: 'Q: "quoted" {{tone}} \\ }' }],
    });
    expect(payload.messages[0]!.content).toBe('Q: {{ prompt }}');
  });

  it('when there is no user message, then one is appended with the prompt; unknown placeholders stay', () => {
    const out = fillPayloadTemplate(
      { messages: [{ role: 'system', content: 'Use {{unknown}} and {{system}}' }] },
      [],
      { prompt: 'hi', system: 'S' },
    );
    expect(out.messages).toEqual([
      { role: 'system', content: 'Use {{unknown}} and S' },
      { role: 'user', content: 'hi' },
    ]);
  });
});

describe('JSON path reading', () => {
  const json = { choices: [{ message: { content: 'text' } }], usage: { prompt_tokens: 4 }, list: ['a'] };
  it('when a path lacks $, then it is read as if it had $.', () => {
    expect(readJsonPath(json, 'choices[0].message.content')).toBe('text');
    expect(readJsonPath(json, '$.usage.prompt_tokens')).toBe(4);
    expect(readJsonPath(json, "['list'][0]")).toBe('a');
    expect(readJsonPath(json, 'missing.path')).toBeUndefined();
  });

  it('when a path holds a script expression, then it is not evaluated', () => {
    (globalThis as { hacked?: boolean }).hacked = false;
    expect(readJsonPath(json, '$..[?(globalThis.hacked = true)]')).toBeUndefined();
    expect((globalThis as { hacked?: boolean }).hacked).toBe(false);
  });
});
