/**
 * Zod pieces shared by every node type: IVR overrides, `next` rules, the entity spec.
 * Each node type's own schema lives beside its handler under nodes/.
 */
import { z } from 'zod';
import { localizedTextSchema } from './languages.js';

export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** "4s", "500ms", "1.5s" → milliseconds, or undefined when it is not a duration. */
export function durationMs(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(value.trim());
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

export const durationSchema = z.string().refine(
  (v) => {
    const ms = durationMs(v);
    return ms !== undefined && ms > 0 && ms <= 60_000;
  },
  { message: 'expected a duration between 1ms and 60s such as "4s" or "500ms"' },
);

/**
 * Where a browser fetches a grammar from: an absolute http or https URL, or a `builtin:` grammar.
 * Any other scheme (`javascript:`, `data:`, `file:`…) or a relative reference is refused where the
 * source is stored: the document carries it to the caller's browser as it is.
 */
export function isGrammarSource(value: string): boolean {
  const v = value.trim();
  if (/^builtin:[a-z]+\/[A-Za-z0-9_-]+(\?[^\s]*)?$/i.test(v)) return true;
  if (!/^https?:\/\//i.test(v)) return false;
  return URL.canParse(v);
}

export const GRAMMAR_SOURCE_MESSAGE = 'a grammar source must be an http or https URL or a builtin: grammar';

export const grammarSourceSchema = z
  .string()
  .min(1)
  .max(2000)
  .refine(isGrammarSource, { message: GRAMMAR_SOURCE_MESSAGE });

export const grammarSpecSchema = z
  .strictObject({
    mode: z.enum(['voice', 'dtmf']),
    src: grammarSourceSchema.optional(),
    inline: z.string().min(1).optional(),
  })
  .refine((g) => (g.src === undefined) !== (g.inline === undefined), {
    message: 'a grammar has either src or inline (one of them)',
  })
  // the renderer writes grammars through its SRGS builder only; an operator's SRGS text is not parsed
  // into it yet, so an inline grammar would be dropped: refused rather than ignored
  .refine((g) => g.inline === undefined, {
    message: 'inline grammars are not supported yet: serve the SRGS grammar at a URL and give it as src',
    path: ['inline'],
  });

export const exceedBehaviourSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('terminationHandler') }),
  z.strictObject({ action: z.literal('startDialog'), dialog: z.string().min(1) }),
  z.strictObject({ action: z.literal('jumpToNode'), node: z.string().min(1) }),
]);

export const ivrOverridesSchema = z.strictObject({
  noInputPrompt: localizedTextSchema.optional(),
  noMatchPrompt: localizedTextSchema.optional(),
  errorPrompt: localizedTextSchema.optional(),
  grammar: z.union([grammarSpecSchema, z.array(grammarSpecSchema).min(1)]).optional(),
  timeout: durationSchema.optional(),
  retries: z.number().int().min(1).max(10).optional(),
  onExceedingRetries: exceedBehaviourSchema.optional(),
  bargein: z.boolean().optional(),
  recording: z.enum(['start', 'stop']).optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'expected a locale such as "en-US"')
    .optional(),
  properties: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'expected a VXML property name'), z.string())
    .optional(),
});

export const nextRuleSchema = z.strictObject({
  when: z.string().min(1).optional(),
  goto: z.string().min(1),
});

const listValueSchema = z.union([
  z.string().min(1),
  z.strictObject({ value: z.string().min(1), synonyms: z.array(z.string().min(1)).default([]) }),
]);

export const entitySpecSchema = z
  .strictObject({
    name: z.string().regex(IDENTIFIER, 'an entity name is an identifier (letters, digits, _)'),
    type: z.enum(['string', 'number', 'digits', 'date', 'yesno', 'list']),
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(1).optional(),
    values: z.array(listValueSchema).optional(),
  })
  .superRefine((e, ctx) => {
    if (e.type === 'list' && (!e.values || e.values.length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'a list entity needs values' });
    }
    if (e.type !== 'list' && e.values !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'values apply to list entities only' });
    }
    if (e.minLength !== undefined && e.maxLength !== undefined && e.minLength > e.maxLength) {
      ctx.addIssue({ code: 'custom', path: ['minLength'], message: 'minLength is greater than maxLength' });
    }
  });

/** Members every node may carry. */
export const nodeCommonShape = {
  ivr: ivrOverridesSchema.optional(),
  next: z.array(nextRuleSchema).optional(),
};

export type IvrOverridesInput = z.output<typeof ivrOverridesSchema>;
export type NextRule = z.output<typeof nextRuleSchema>;
export type EntitySpecDefinition = z.output<typeof entitySpecSchema>;
