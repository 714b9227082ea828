import { z } from 'zod';
import { defineNode, type NodeOutcome } from '../define-node.js';
import { IDENTIFIER, nodeCommonShape } from '../node-schema-parts.js';

/**
 * Fills the record's templates (a value that is exactly one placeholder keeps its type), keeps its
 * literal numbers and booleans, and inserts it through the table port (which brings each value to
 * its column's type); `saveAs` keeps the stored record in `vars`. On failure the error
 * prompt is said and `next` runs; without any error prompt the turn ends with an error result.
 */
export const tableNode = defineNode({
  type: 'table',
  schema: z.strictObject({
    type: z.literal('table'),
    table: z.string().min(1),
    /** A column's value: a template (text with placeholders), or a literal number or boolean. */
    record: z.record(z.string().min(1), z.union([z.string(), z.number().finite(), z.boolean()])),
    saveAs: z.string().regex(IDENTIFIER, 'saveAs is an identifier').optional(),
    ...nodeCommonShape,
  }),
  templates: { record: 'textMap' },
  writes: (def) => (typeof def.saveAs === 'string' ? { vars: [def.saveAs, `${def.saveAs}Error`] } : {}),
  run: async (node, rt): Promise<NodeOutcome> => {
    const { table, saveAs } = node.def;
    const record: Record<string, unknown> = {};
    for (const [column, given] of Object.entries(node.def.record))
      record[column] = typeof given === 'string' ? rt.value(node, `record.${column}`) : given;
    try {
      const port = rt.ports.tables;
      if (!port) throw new Error('no table port');
      const stored = await port.insert({ streamId: rt.call.streamId, table, record, step: rt.step(node) });
      if (saveAs) {
        rt.state.vars[saveAs] = stored;
        delete rt.state.vars[`${saveAs}Error`];
      }
      return { kind: 'say', prompt: [] };
    } catch {
      if (saveAs) rt.state.vars[`${saveAs}Error`] = 'failed';
      const prompt = rt.errorPrompt(node);
      return prompt ? { kind: 'say', prompt } : { kind: 'error', code: 'table_failed' };
    }
  },
});
