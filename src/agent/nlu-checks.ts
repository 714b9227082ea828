/**
 * Semantic checks of the recognition settings (the `nlu` block and the intents' `label`, `confirm`,
 * `confirmAbove`, `negatives`), over the raw input like the other checks, each at its JSON path:
 * prompts use only their own slots, a confirmAbove under the threshold (nothing would be confirmed),
 * two intents the prompts would name alike, a phrase that is both an example and a counter-example.
 */
import {
  labelFromName,
  NLU_DEFAULTS,
  NLU_PROMPT_SLOTS,
  promptSlots,
  type NluPromptName,
} from './nlu-settings.js';

interface Problem {
  path: string;
  msg: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const isLevel = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function checkPrompts(prompts: Obj, out: Problem[]): void {
  for (const name of Object.keys(NLU_PROMPT_SLOTS) as NluPromptName[]) {
    const given = prompts[name];
    const texts: Array<[string, unknown]> =
      typeof given === 'string'
        ? [['', given]]
        : Object.entries(asObj(given)).map(([lang, t]) => [`.${lang}`, t]);
    for (const [at, text] of texts) {
      if (typeof text !== 'string') continue;
      const allowed: readonly string[] = NLU_PROMPT_SLOTS[name];
      for (const slot of promptSlots(text)) {
        if (!allowed.includes(slot)) {
          const may = allowed.length
            ? `it may use ${allowed.map((s) => `{${s}}`).join(' and ')}`
            : 'it has no slots';
          out.push({ path: `nlu.prompts.${name}${at}`, msg: `unknown slot {${slot}} (${may})` });
        }
      }
    }
  }
}

/** The recognition settings' problems; `normalize` is how utterances are compared. */
export function nluProblems(input: Obj, normalize: (text: string) => string): Problem[] {
  const out: Problem[] = [];
  const nlu = asObj(input.nlu);
  checkPrompts(asObj(nlu.prompts), out);
  const threshold = isLevel(nlu.threshold)
    ? nlu.threshold
    : isLevel(input.intentThreshold)
      ? input.intentThreshold
      : NLU_DEFAULTS.threshold;
  const below = (v: unknown): v is number => isLevel(v) && v < threshold;
  if (below(nlu.confirmAbove))
    out.push({
      path: 'nlu.confirmAbove',
      msg: `confirmAbove ${nlu.confirmAbove} is below the threshold ${threshold}: nothing would be confirmed`,
    });
  const intents = Array.isArray(input.intents) ? input.intents.map(asObj) : [];
  const utteranceOf = new Map<string, string>();
  for (const intent of intents)
    for (const u of strings(intent.utterances))
      utteranceOf.set(normalize(u), typeof intent.name === 'string' ? intent.name : '');
  strings(nlu.outOfScope).forEach((phrase, k) => {
    const owner = utteranceOf.get(normalize(phrase));
    if (owner !== undefined)
      out.push({
        path: `nlu.outOfScope[${k}]`,
        msg: `"${phrase}" is also an utterance of intent "${owner}"`,
      });
  });
  const labels = new Map<string, number>();
  intents.forEach((intent, i) => {
    const base = `intents[${i}]`;
    if (below(intent.confirmAbove))
      out.push({
        path: `${base}.confirmAbove`,
        msg: `confirmAbove ${intent.confirmAbove} is below the threshold ${threshold}: nothing would be confirmed (use "confirm": "never")`,
      });
    const own = new Set(strings(intent.utterances).map(normalize));
    strings(intent.negatives).forEach((phrase, k) => {
      if (own.has(normalize(phrase)))
        out.push({ path: `${base}.negatives[${k}]`, msg: `"${phrase}" is also an utterance of this intent` });
    });
    const label =
      typeof intent.label === 'string'
        ? intent.label
        : typeof intent.name === 'string'
          ? labelFromName(intent.name)
          : undefined;
    if (label === undefined) return;
    const key = normalize(label);
    const first = labels.get(key);
    if (first !== undefined) {
      out.push({
        path: `${base}.${typeof intent.label === 'string' ? 'label' : 'name'}`,
        msg: `the prompts would name this intent "${label}", as intents[${first}]: give one a distinct label`,
      });
    } else labels.set(key, i);
  });
  return out;
}
