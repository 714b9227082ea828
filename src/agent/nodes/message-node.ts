import { z } from 'zod';
import { localizedTextSchema } from '../languages.js';
import {} from '../languages.js';
import { defineNode } from '../define-node.js';
import { nodeCommonShape } from '../node-schema-parts.js';

/** Says its text (SSML allowlist + placeholders), then follows `next`. */
export const messageNode = defineNode({
  type: 'message',
  schema: z.strictObject({ type: z.literal('message'), text: localizedTextSchema, ...nodeCommonShape }),
  templates: { text: 'prompt' },
  run: (node, rt) => ({ kind: 'say', prompt: rt.prompt(node, 'text') ?? [] }),
});
