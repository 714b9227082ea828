/**
 * The agent definition (dialogs of typed nodes): zod schema plus semantic checks. Validation lists
 * every problem at once, each with its JSON path ("dialogs.book.nodes.size.next[0].goto").
 */
import { z } from 'zod';
import { semanticProblems, type DefinitionProblem } from './definition-checks.js';
import { translationGaps } from './translation-gaps.js';
import { languageTagSchema, localizedText } from './languages.js';
import { NLU_DEFAULTS } from './nlu-settings.js';
import { nodeModules, nodeTypes, type AgentNode } from './node-registry.js';

export type { DefinitionProblem } from './definition-checks.js';
export type { AgentNode } from './node-registry.js';

const schemas = nodeModules.map((m) => m.schema) as unknown as [
  (typeof nodeModules)[0]['schema'],
  ...(typeof nodeModules)[number]['schema'][],
];
const nodeSchema = z.discriminatedUnion('type', schemas) as unknown as z.ZodType<AgentNode>;

const NAME = /^[^\s.[\]][^.[\]]{0,99}$/;
const nameSchema = z
  .string()
  .regex(NAME, 'expected a non-empty name without ".", "[" or "]" (at most 100 characters)');

export const dialogSchema = z.strictObject({
  start: z.string().min(1),
  nodes: z.record(nameSchema, nodeSchema),
});

const level = z.number().min(0).max(1);
const phrases = z.array(z.string().trim().min(1, 'empty phrase').max(500)).max(1000);

export const intentSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'an intent name starts with a letter (letters, digits, _ . -)'),
  utterances: z.array(z.string()),
  dialog: z.string().min(1),
  negatives: phrases
    .optional()
    .describe('Phrases that must not be taken for this intent (they teach the recognizer).'),
  label: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'How the confirmation and disambiguation prompts name the intent; derived from the name when absent (RefillPrescription: "refill a prescription").',
    ),
  confirm: z
    .enum(['auto', 'always', 'never'])
    .optional()
    .describe(
      'auto (default): confirm below confirmAbove; always: confirm every recognition of this intent; never: never ask.',
    ),
  confirmAbove: level.optional().describe("This intent's own confirmAbove (default: the nlu block's)."),
  translations: z
    .record(
      languageTagSchema,
      z.strictObject({
        utterances: z.array(z.string()).describe("The intent's training phrases in this language."),
        negatives: phrases.optional(),
        label: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe('How the questions name the intent in this language.'),
      }),
    )
    .optional()
    .describe('The phrases (and label) of the intent in each other declared language, by language tag.'),
});

export const nluSchema = z
  .strictObject({
    threshold: level
      .optional()
      .describe(
        `The confidence an intent needs (default ${NLU_DEFAULTS.threshold}); below it the turn goes to the fallback dialog. Wins over intentThreshold.`,
      ),
    margin: level
      .optional()
      .describe(
        `When the two best intents are at most this far apart the caller is asked which they meant (default ${NLU_DEFAULTS.margin}; 0 turns it off).`,
      ),
    confirmAbove: level
      .optional()
      .describe(
        'Confidences from the threshold up to this level are confirmed ("Did you want to …?"). Default: the threshold (no confirmation).',
      ),
    outOfScope: z
      .union([phrases, z.record(languageTagSchema, phrases)])
      .optional()
      .describe(
        'Example phrases the agent must not take for any of its intents (they go to the fallback); a list, or a list per language.',
      ),
    prompts: z
      .strictObject({
        confirm: localizedText(z.string().trim().min(1).max(500))
          .optional()
          .describe(`Default "${NLU_DEFAULTS.prompts.confirm}"; slot {label}.`),
        choose: localizedText(z.string().trim().min(1).max(500))
          .optional()
          .describe(`Default "${NLU_DEFAULTS.prompts.choose}"; slots {first} and {second}.`),
        denied: localizedText(z.string().trim().min(1).max(500))
          .optional()
          .describe(
            `Said after a "no", before the caller is heard again. Default "${NLU_DEFAULTS.prompts.denied}".`,
          ),
      })
      .optional(),
  })
  .describe('How intents are recognised, confirmed and told apart (every member optional).');

export const languageChoiceSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe('Offer the languages after the welcome (default true for an agent of several languages).'),
    keys: z
      .record(languageTagSchema, z.string().regex(/^[0-9]$/, 'a key is one digit'))
      .optional()
      .describe('The key of each language (default: 1, 2, 3… in the order of `languages`).'),
  })
  .describe("How the caller picks a language at the welcome: a key, or the language's name.");

export const agentDefinitionSchema = z.strictObject({
  language: z
    .string()
    .min(2)
    .describe('The default language (the first of `languages` when both are given).'),
  languages: z
    .array(languageTagSchema)
    .min(1)
    .max(8)
    .optional()
    .describe('The languages of the agent, the default first (absent: [language], else ["en-US"]).'),
  translationFallback: z
    .boolean()
    .optional()
    .describe(
      "A text missing in a language uses the default language's (listed in the agent's status) instead of being refused.",
    ),
  languageChoice: languageChoiceSchema.optional(),
  /** IANA zone in which relative dates ("tomorrow") are resolved; UTC when absent. */
  timeZone: z.string().optional(),
  welcomeDialog: z.string().min(1),
  fallbackDialog: z.string().min(1),
  intentThreshold: level.optional().describe('Deprecated: nlu.threshold (which wins when both are given).'),
  nlu: nluSchema.optional(),
  intents: z.array(intentSchema),
  dialogs: z.record(nameSchema, dialogSchema),
});

export type AgentDefinition = z.output<typeof agentDefinitionSchema>;
export type AgentDefinitionInput = z.input<typeof agentDefinitionSchema>;
export type DialogDefinition = z.output<typeof dialogSchema>;
export type IntentDefinition = z.output<typeof intentSchema>;

export type ValidationResult =
  { ok: true; definition: AgentDefinition } | { ok: false; problems: DefinitionProblem[] };

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
    return issue.keys.map((key) => ({
      path: formatPath([...issue.path, key]),
      msg: `unknown member "${key}"`,
    }));
  }
  return [issueToProblem(issue, input)];
}

function issueToProblem(issue: z.core.$ZodIssue, input: unknown): DefinitionProblem {
  const path = formatPath(issue.path);
  const isNodeType =
    issue.path.length === 5 &&
    issue.path[0] === 'dialogs' &&
    issue.path[2] === 'nodes' &&
    issue.path[4] === 'type';
  if (issue.code === 'invalid_union' && isNodeType) {
    const value = valueAt(input, issue.path);
    const expected = `expected one of: ${nodeTypes.join(', ')}`;
    return {
      path,
      msg:
        value === undefined
          ? `node type is missing (${expected})`
          : `unknown node type ${JSON.stringify(value)} (${expected})`,
    };
  }
  return { path, msg: issue.message };
}

/** Validates a definition: the parsed definition (defaults applied), or every problem with its path. */
export function validateAgentDefinition(input: unknown): ValidationResult {
  const parsed = agentDefinitionSchema.safeParse(input);
  const problems: DefinitionProblem[] = parsed.success
    ? []
    : parsed.error.issues.flatMap((i) => issueToProblems(i, input));
  const seen = new Set(problems.map((p) => `${p.path}\u0000${p.msg}`));
  for (const p of semanticProblems(input)) {
    const key = `${p.path}\u0000${p.msg}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(p);
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  const gaps = translationGaps(parsed.data);
  if (gaps.length > 0 && !parsed.data.translationFallback) {
    return {
      ok: false,
      problems: gaps.map((g) => ({
        path: g.path,
        msg: `missing the ${g.language} text (or set translationFallback to use the default language's)`,
      })),
    };
  }
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
