/**
 * The agent definition (dialogs of typed nodes): zod schema plus semantic checks. Validation lists
 * every problem at once, each with its JSON path ("dialogs.book.nodes.size.next[0].goto").
 */
import { z } from 'zod';
import { semanticProblems, type DefinitionProblem } from './definition-checks.js';
import { nodeModules, nodeTypes, type AgentNode } from './node-registry.js';

export type { DefinitionProblem } from './definition-checks.js';
export type { AgentNode } from './node-registry.js';

const schemas = nodeModules.map((m) => m.schema) as unknown as [
  (typeof nodeModules)[0]['schema'],
  ...(typeof nodeModules)[number]['schema'][],
];
const nodeSchema = z.discriminatedUnion('type', schemas) as unknown as z.ZodType<AgentNode>;

const NAME = /^[^\s.[\]][^.[\]]{0,99}$/;
const nameSchema = z.string().regex(NAME, 'expected a non-empty name without ".", "[" or "]" (at most 100 characters)');

export const dialogSchema = z.strictObject({
  start: z.string().min(1),
  nodes: z.record(nameSchema, nodeSchema),
});

export const intentSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'an intent name starts with a letter (letters, digits, _ . -)'),
  utterances: z.array(z.string()),
  dialog: z.string().min(1),
});

export const agentDefinitionSchema = z.strictObject({
  language: z.string().min(2),
  /** IANA zone in which relative dates ("tomorrow") are resolved; UTC when absent. */
  timeZone: z.string().optional(),
  welcomeDialog: z.string().min(1),
  fallbackDialog: z.string().min(1),
  intentThreshold: z.number().min(0).max(1).default(0.6),
  intents: z.array(intentSchema),
  dialogs: z.record(nameSchema, dialogSchema),
});

export type AgentDefinition = z.output<typeof agentDefinitionSchema>;
export type AgentDefinitionInput = z.input<typeof agentDefinitionSchema>;
export type DialogDefinition = z.output<typeof dialogSchema>;
export type IntentDefinition = z.output<typeof intentSchema>;

export type ValidationResult = { ok: true; definition: AgentDefinition } | { ok: false; problems: DefinitionProblem[] };

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function issueToProblems(issue: z.core.$ZodIssue, input: unknown): DefinitionProblem[] {
  // one problem per unknown member, at its own path: a typo is shown where it is
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), msg: `unknown member "${key}"` }));
  }
  return [issueToProblem(issue, input)];
}

function issueToProblem(issue: z.core.$ZodIssue, input: unknown): DefinitionProblem {
  const path = formatPath(issue.path);
  const isNodeType = issue.path.length === 5 && issue.path[0] === 'dialogs' && issue.path[2] === 'nodes' && issue.path[4] === 'type';
  if (issue.code === 'invalid_union' && isNodeType) {
    const value = valueAt(input, issue.path);
    const expected = `expected one of: ${nodeTypes.join(', ')}`;
    return { path, msg: value === undefined ? `node type is missing (${expected})` : `unknown node type ${JSON.stringify(value)} (${expected})` };
  }
  return { path, msg: issue.message };
}

/** Validates a definition: the parsed definition (defaults applied), or every problem with its path. */
export function validateAgentDefinition(input: unknown): ValidationResult {
  const parsed = agentDefinitionSchema.safeParse(input);
  const problems: DefinitionProblem[] = parsed.success ? [] : parsed.error.issues.flatMap((i) => issueToProblems(i, input));
  const seen = new Set(problems.map((p) => `${p.path}\u0000${p.msg}`));
  for (const p of semanticProblems(input)) {
    const key = `${p.path}\u0000${p.msg}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(p);
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, definition: parsed.data };
}

export class AgentDefinitionError extends Error {
  constructor(readonly problems: DefinitionProblem[]) {
    super(`invalid agent definition: ${problems.map((p) => `${p.path}: ${p.msg}`).join('; ')}`);
    this.name = 'AgentDefinitionError';
  }
}

/** The validated definition, or an AgentDefinitionError listing every problem. */
export function parseAgentDefinition(input: unknown): AgentDefinition {
  const result = validateAgentDefinition(input);
  if (!result.ok) throw new AgentDefinitionError(result.problems);
  return result.definition;
}
