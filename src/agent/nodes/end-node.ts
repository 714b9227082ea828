import { z } from 'zod';
import { localizedTextSchema } from '../languages.js';
import { defineNode } from '../define-node.js';
import { ivrOverridesSchema } from '../node-schema-parts.js';

/** Says its text and ends the conversation (the only node that does). */
export const endNode = defineNode({
  type: 'end',
  schema: z.strictObject({
    type: z.literal('end'),
    text: localizedTextSchema.optional(),
    ivr: ivrOverridesSchema.optional(),
  }),
  templates: { text: 'prompt' },
  run: (node, rt) => ({ kind: 'end', prompt: rt.prompt(node, 'text') ?? [] }),
});
