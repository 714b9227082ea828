/**
 * Which texts of a definition are missing in one of its languages (see languages.ts). Read from the
 * parsed definition; agent-definition.ts turns them into problems unless the agent allows the fallback.
 */
import type { AgentDefinition } from './agent-definition.js';
import { declaredLanguages, textIn } from './languages.js';
import { nodeRegistry } from './node-registry.js';

const IVR_PROMPT_FIELDS = ['noInputPrompt', 'noMatchPrompt', 'errorPrompt'] as const;

/**
 * The texts of a definition missing in one of its languages, each with its JSON path: a node's
 * prompt or text, an IVR prompt, an intent's phrases. Under `translationFallback` they are served in
 * the default language and listed in the agent's status; otherwise each is a validation problem.
 */
export function translationGaps(def: AgentDefinition): Array<{ path: string; language: string }> {
  const languages = declaredLanguages(def);
  const base = languages[0]!;
  const out: Array<{ path: string; language: string }> = [];
  if (languages.length < 2) return out;
  const others = languages.slice(1);
  const text = (value: unknown, path: string): void => {
    if (value === undefined) return;
    for (const lang of [base, ...others])
      if (textIn(value, lang, base, false) === undefined)
        out.push({ path: `${path}.${lang}`, language: lang });
  };
  def.intents.forEach((intent, i) => {
    for (const lang of others)
      if (!intent.translations?.[lang])
        out.push({ path: `intents[${i}].translations.${lang}.utterances`, language: lang });
  });
  for (const [name, dialog] of Object.entries(def.dialogs)) {
    for (const [id, node] of Object.entries(dialog.nodes)) {
      const module = nodeRegistry.get(node.type);
      const fields = node as unknown as Record<string, unknown>;
      const at = `dialogs.${name}.nodes.${id}`;
      // what the caller hears (an llm node's prompt and system text go to a model, in any language)
      for (const [field, kind] of Object.entries(module?.templates ?? {}))
        if (kind === 'prompt') text(fields[field], `${at}.${field}`);
      for (const field of IVR_PROMPT_FIELDS) text(node.ivr?.[field], `${at}.ivr.${field}`);
    }
  }
  for (const [name, value] of Object.entries(def.nlu?.prompts ?? {}))
    if (typeof value === 'object') text(value, `nlu.prompts.${name}`);
  return out;
}
