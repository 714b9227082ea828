/**
 * Fills a custom API connection's payload template. The JSON is walked structurally and
 * `{{name}}` placeholders are replaced inside string values only (never in keys, never by string
 * concatenation of JSON): `prompt` is the prompt, `system` the system text, and each prompt
 * variable its default value; unknown placeholders are left as they are. When the last user
 * message has no placeholder, the prompt becomes its content (or a user message is appended); a
 * system text with no `{{system}}` placeholder and no system message is put first.
 */
import type { PromptVar } from './connection-record.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;
const hasPlaceholder = (s: string): boolean => new RegExp(PLACEHOLDER.source).test(s);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function substitute(node: Json, values: Map<string, string>, used: Set<string>): Json {
  if (typeof node === 'string') {
    return node.replace(PLACEHOLDER, (whole, name: string) => {
      const v = values.get(name);
      if (v === undefined) return whole;
      used.add(name);
      return v;
    });
  }
  if (Array.isArray(node)) return node.map((x) => substitute(x, values, used));
  if (node && typeof node === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(node)) out[k] = substitute(v, values, used);
    return out;
  }
  return node;
}

export function fillPayloadTemplate(
  payload: Record<string, unknown>,
  promptVars: PromptVar[],
  call: { prompt: string; system?: string },
): Record<string, unknown> {
  const values = new Map<string, string>();
  for (const v of promptVars) values.set(v.name, v.defaultValue);
  values.set('prompt', call.prompt);
  values.set('system', call.system ?? '');
  const used = new Set<string>();
  const original = payload as { [k: string]: Json };
  const filled = substitute(original, values, used) as { [k: string]: Json };

  const messages = filled.messages;
  if (Array.isArray(messages)) {
    const origMessages = original.messages as Json[];
    const isRole = (m: Json, role: string) =>
      !!m && typeof m === 'object' && !Array.isArray(m) && m.role === role;
    let lastUser = -1;
    messages.forEach((m, i) => {
      if (isRole(m, 'user')) lastUser = i;
    });
    if (lastUser < 0) messages.push({ role: 'user', content: call.prompt });
    else {
      const orig = origMessages[lastUser] as { content?: Json };
      if (typeof orig.content !== 'string' || !hasPlaceholder(orig.content))
        (messages[lastUser] as { content: Json }).content = call.prompt;
    }
    if (call.system && !used.has('system') && !messages.some((m) => isRole(m, 'system'))) {
      messages.unshift({ role: 'system', content: call.system });
    }
  }
  return filled;
}
