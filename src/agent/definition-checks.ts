/**
 * Semantic checks of an agent definition, run over the raw input (with type guards) so they report
 * alongside the schema's issues even when parts of the definition are malformed.
 */
import { reservedContextKeys } from './evaluation-context.js';
import { expressionProblem } from './expression.js';
import { nluProblems } from './nlu-checks.js';
import { declaredLanguages, sameLanguage } from './languages.js';
import { nodeRegistry } from './node-registry.js';
import { placeholderProblems } from './prompt-template.js';
import {
  expressionNameProblems,
  knownNames,
  placeholderNameProblems,
  type KnownNames,
} from './name-checks.js';

export interface DefinitionProblem {
  path: string;
  msg: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const has = (o: Obj, key: string): boolean => Object.hasOwn(o, key);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Lower case, punctuation removed, whitespace collapsed: how utterances are compared. */
export function normalizeUtterance(text: string): string {
  // the same result without Unicode classes for printable ASCII (letters and digits are [a-z0-9]
  // there, and the only space is " "): several times faster on an agent's many utterances
  if (PRINTABLE_ASCII.test(text)) {
    return text
      .toLowerCase()
      .replace(/[^a-z0-9 ']+/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim();
  }
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const IVR_PROMPTS = ['noInputPrompt', 'noMatchPrompt', 'errorPrompt'] as const;

function checkIntents(root: Obj, dialogs: Obj, out: DefinitionProblem[]): void {
  if (!Array.isArray(root.intents)) return;
  const names = new Map<string, number>();
  // where each utterance was first seen (its path is only written out for a problem)
  const utterances = new Map<string, { intent: string; i: number; k: number }>();
  root.intents.forEach((raw, i) => {
    const intent = asObj(raw);
    const base = `intents[${i}]`;
    const name = typeof intent.name === 'string' ? intent.name : undefined;
    if (name !== undefined) {
      if (name === 'None')
        out.push({ path: `${base}.name`, msg: '"None" is reserved for "no intent recognised"' });
      const first = names.get(name);
      if (first !== undefined)
        out.push({ path: `${base}.name`, msg: `duplicate intent name "${name}" (also intents[${first}])` });
      else names.set(name, i);
    }
    if (typeof intent.dialog === 'string' && !has(dialogs, intent.dialog)) {
      out.push({
        path: `${base}.dialog`,
        msg: `intent starts dialog "${intent.dialog}", which does not exist`,
      });
    }
    if (!Array.isArray(intent.utterances)) return;
    if (intent.utterances.length === 0)
      out.push({ path: `${base}.utterances`, msg: 'intent has no utterances' });
    intent.utterances.forEach((u, k) => {
      if (typeof u !== 'string') return;
      const norm = normalizeUtterance(u);
      if (norm === '') {
        out.push({ path: `${base}.utterances[${k}]`, msg: 'empty utterance' });
        return;
      }
      const seen = utterances.get(norm);
      if (seen && seen.intent !== (name ?? '')) {
        out.push({
          path: `${base}.utterances[${k}]`,
          msg: `utterance "${u}" is also an utterance of intent "${seen.intent}" (intents[${seen.i}].utterances[${seen.k}])`,
        });
      } else if (!seen) utterances.set(norm, { intent: name ?? '', i, k });
    });
  });
}

function checkTemplate(value: unknown, path: string, known: KnownNames, out: DefinitionProblem[]): void {
  if (isObj(value)) {
    for (const [lang, text] of Object.entries(value)) checkTemplate(text, `${path}.${lang}`, known, out);
    return;
  }
  if (typeof value !== 'string') return;
  for (const msg of placeholderProblems(value)) out.push({ path, msg });
  for (const msg of placeholderNameProblems(value, known)) out.push({ path, msg });
}

/** Checks one node; returns the node ids it can go to (for reachability). */
function checkNode(
  node: Obj,
  base: string,
  nodes: Obj,
  dialogs: Obj,
  known: KnownNames,
  out: DefinitionProblem[],
): string[] {
  const targets: string[] = [];
  if (Array.isArray(node.next)) {
    node.next.forEach((raw, i) => {
      const rule = asObj(raw);
      if (typeof rule.goto === 'string') {
        if (has(nodes, rule.goto)) targets.push(rule.goto);
        else out.push({ path: `${base}.next[${i}].goto`, msg: `goto to a missing node "${rule.goto}"` });
      }
      if (typeof rule.when === 'string' && rule.when.trim() !== '') {
        const problem = expressionProblem(rule.when);
        if (problem) out.push({ path: `${base}.next[${i}].when`, msg: problem });
        else
          for (const msg of expressionNameProblems(rule.when, known))
            out.push({ path: `${base}.next[${i}].when`, msg });
      }
    });
  }
  const ivr = asObj(node.ivr);
  for (const field of IVR_PROMPTS) checkTemplate(ivr[field], `${base}.ivr.${field}`, known, out);
  const exceed = asObj(ivr.onExceedingRetries);
  if (exceed.action === 'jumpToNode' && typeof exceed.node === 'string') {
    if (has(nodes, exceed.node)) targets.push(exceed.node);
    else
      out.push({
        path: `${base}.ivr.onExceedingRetries.node`,
        msg: `jumpToNode to a missing node "${exceed.node}"`,
      });
  }
  if (exceed.action === 'startDialog' && typeof exceed.dialog === 'string' && !has(dialogs, exceed.dialog)) {
    out.push({
      path: `${base}.ivr.onExceedingRetries.dialog`,
      msg: `startDialog to a missing dialog "${exceed.dialog}"`,
    });
  }
  const module = typeof node.type === 'string' ? nodeRegistry.get(node.type) : undefined;
  for (const [field, kind] of Object.entries(module?.templates ?? {})) {
    if (kind === 'textMap') {
      for (const [key, value] of Object.entries(asObj(node[field])))
        checkTemplate(value, `${base}.${field}.${key}`, known, out);
    } else checkTemplate(node[field], `${base}.${field}`, known, out);
  }
  if (typeof node.saveAs === 'string' && reservedContextKeys.includes(node.saveAs)) {
    out.push({
      path: `${base}.saveAs`,
      msg: `"${node.saveAs}" is reserved in the context (${reservedContextKeys.join(', ')})`,
    });
  }
  return targets;
}

function checkDialog(
  name: string,
  dialog: Obj,
  dialogs: Obj,
  known: KnownNames,
  out: DefinitionProblem[],
): void {
  const base = `dialogs.${name}`;
  const nodes = asObj(dialog.nodes);
  const edges = new Map<string, string[]>();
  for (const [id, raw] of Object.entries(nodes)) {
    if (isObj(raw)) edges.set(id, checkNode(raw, `${base}.nodes.${id}`, nodes, dialogs, known, out));
  }
  if (typeof dialog.start !== 'string') return;
  if (!has(nodes, dialog.start)) {
    out.push({ path: `${base}.start`, msg: `start node "${dialog.start}" does not exist` });
    return;
  }
  const reached = new Set<string>([dialog.start]);
  const queue = [dialog.start];
  while (queue.length > 0) {
    for (const next of edges.get(queue.shift() ?? '') ?? []) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  for (const id of Object.keys(nodes)) {
    if (!reached.has(id))
      out.push({
        path: `${base}.nodes.${id}`,
        msg: `node is unreachable from the start node "${dialog.start}"`,
      });
  }
}

const SUPPORTED = /^(en|es)(?:[-_][A-Za-z0-9]+)*$/i;

/** The declared languages are supported and distinct, `language` is the first, and every key of a text names one. */
function languageProblems(input: Obj): DefinitionProblem[] {
  const out: DefinitionProblem[] = [];
  const languages = declaredLanguages(input);
  if (typeof input.language === 'string' && !SUPPORTED.test(input.language)) {
    out.push({ path: 'language', msg: `language "${input.language}" is not supported (only "en" and "es")` });
  }
  if (!Array.isArray(input.languages)) return out;
  languages.forEach((lang, i) => {
    if (!SUPPORTED.test(lang))
      out.push({ path: `languages[${i}]`, msg: `language "${lang}" is not supported (only "en" and "es")` });
    if (languages.findIndex((l) => sameLanguage(l, lang)) !== i)
      out.push({ path: `languages[${i}]`, msg: `language "${lang}" is declared twice` });
  });
  if (
    typeof input.language === 'string' &&
    languages[0] !== undefined &&
    !sameLanguage(input.language, languages[0])
  ) {
    out.push({
      path: 'language',
      msg: `language "${input.language}" must be the first of languages ("${languages[0]}")`,
    });
  }
  const declared = new Set(languages);
  const keys = (value: unknown, path: string): void => {
    if (!isObj(value)) return;
    for (const lang of Object.keys(value))
      if (!declared.has(lang))
        out.push({
          path: `${path}.${lang}`,
          msg: `"${lang}" is not one of the agent's languages (${languages.join(', ')})`,
        });
  };
  if (Array.isArray(input.intents))
    input.intents.forEach((intent, i) => keys(asObj(intent).translations, `intents[${i}].translations`));
  const nlu = asObj(input.nlu);
  keys(nlu.outOfScope, 'nlu.outOfScope');
  for (const [name, value] of Object.entries(asObj(nlu.prompts))) keys(value, `nlu.prompts.${name}`);
  keys(asObj(input.languageChoice).keys, 'languageChoice.keys');
  for (const [dialog, d] of Object.entries(asObj(input.dialogs))) {
    for (const [id, raw] of Object.entries(asObj(asObj(d).nodes))) {
      const node = asObj(raw);
      const at = `dialogs.${dialog}.nodes.${id}`;
      const module = typeof node.type === 'string' ? nodeRegistry.get(node.type) : undefined;
      for (const [field, kind] of Object.entries(module?.templates ?? {}))
        if (kind !== 'textMap') keys(node[field], `${at}.${field}`);
      for (const [field, value] of Object.entries(asObj(node.ivr)))
        if (field.endsWith('Prompt')) keys(value, `${at}.ivr.${field}`);
    }
  }
  return out;
}

export function semanticProblems(input: unknown): DefinitionProblem[] {
  if (!isObj(input)) return [];
  const out: DefinitionProblem[] = [];
  const dialogs = asObj(input.dialogs);
  out.push(...languageProblems(input));
  if (typeof input.timeZone === 'string') {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: input.timeZone });
    } catch {
      out.push({ path: 'timeZone', msg: `unknown time zone "${input.timeZone}"` });
    }
  }
  for (const key of ['welcomeDialog', 'fallbackDialog'] as const) {
    const name = input[key];
    if (typeof name === 'string' && name !== '' && !has(dialogs, name))
      out.push({ path: key, msg: `dialog "${name}" does not exist` });
  }
  checkIntents(input, dialogs, out);
  out.push(...nluProblems(input, normalizeUtterance));
  const known = knownNames(dialogs);
  for (const [name, dialog] of Object.entries(dialogs))
    if (isObj(dialog)) checkDialog(name, dialog, dialogs, known, out);
  return out;
}
