import { z } from 'zod';
import { localizedTextSchema } from '../languages.js';
import {} from '../languages.js';
import { defineNode } from '../define-node.js';
import { extractEntity, listPhrases } from '../entity-extractors.js';
import { entitySpecSchema, nodeCommonShape } from '../node-schema-parts.js';
import type { AwaitSpec } from '../turn-types.js';

/**
 * Asks its prompt and awaits the caller's answer; `accept` extracts the entity from it. The runner
 * stores a match under `entities[name]` and follows `next`, or re-asks on no match.
 */
export const entityNode = defineNode({
  type: 'entity',
  schema: z.strictObject({
    type: z.literal('entity'),
    prompt: localizedTextSchema,
    entity: entitySpecSchema,
    ...nodeCommonShape,
  }),
  templates: { prompt: 'prompt' },
  writes: (def) => {
    const name = (def.entity as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' ? { entities: [name] } : {};
  },
  run: (node, rt) => {
    const { type, minLength, maxLength, values } = node.def.entity;
    const awaitSpec: AwaitSpec = {
      kind: 'entity',
      entityType: type,
      ...(minLength !== undefined ? { minLength } : {}),
      ...(maxLength !== undefined ? { maxLength } : {}),
      ...(values ? { values: listPhrases(values) } : {}),
    };
    return { kind: 'ask', prompt: rt.prompt(node, 'prompt') ?? [], await: awaitSpec };
  },
  accept: (node, rt, input) =>
    extractEntity(
      node.def.entity,
      {
        text: input.text,
        inputmode: input.inputmode,
        ...(input.asr ? { interpretation: input.asr.interpretation } : {}),
      },
      { now: rt.now, timeZone: rt.timeZone },
    ),
  entityName: (node) => node.def.entity.name,
});
