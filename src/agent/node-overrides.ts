/** The IVR overrides a node declares (`ivr` in the agent: prompts, grammars, timeouts, properties) as the turn's result carries them. */
import type { CompiledNode } from './define-node.js';
import type { IvrOverrides, PromptPart } from './turn-types.js';

export function nodeOverrides(
  node: CompiledNode,
  prompt: (field: string) => PromptPart[] | undefined,
): { overrides?: IvrOverrides } {
  const ivr = node.def.ivr;
  if (!ivr) return {};
  const o: IvrOverrides = {};
  const noInput = prompt('ivr.noInputPrompt');
  const noMatch = prompt('ivr.noMatchPrompt');
  const error = prompt('ivr.errorPrompt');
  if (noInput) o.noInputPrompt = noInput;
  if (noMatch) o.noMatchPrompt = noMatch;
  if (error) o.errorPrompt = error;
  if (ivr.grammar)
    o.grammar = (Array.isArray(ivr.grammar) ? ivr.grammar : [ivr.grammar]).map((g) => ({ ...g }));
  if (ivr.timeout !== undefined) o.timeout = ivr.timeout;
  if (ivr.retries !== undefined) o.retries = ivr.retries;
  if (ivr.bargein !== undefined) o.bargein = ivr.bargein;
  if (ivr.recording !== undefined) o.recording = ivr.recording;
  if (ivr.locale !== undefined) o.locale = ivr.locale;
  if (ivr.properties !== undefined) o.properties = { ...ivr.properties };
  return Object.keys(o).length > 0 ? { overrides: o } : {};
}
