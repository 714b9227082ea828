import { z } from 'zod';
import { localizedTextSchema } from '../languages.js';
import { defineNode, type NodeOutcome } from '../define-node.js';
import { nodeCommonShape } from '../node-schema-parts.js';

const DESTINATION = /^(?:tel:\+?[0-9A-Za-z*#(),;=.-]+|sips?:[^\s<>"]+)$/;

/**
 * Transfers the call to `destination`. A `skillGroupId` is resolved through the skill group port
 * (an unknown id is an error result; without a port the id is passed on unresolved). When the
 * transfer outcome comes back (`vars.transferResult`), the node's `next` rules run.
 */
export const transferNode = defineNode({
  type: 'transfer',
  schema: z.strictObject({
    type: z.literal('transfer'),
    text: localizedTextSchema.optional(),
    destination: z.string().regex(DESTINATION, 'expected a tel: or sip: URI'),
    skillGroupId: z.string().min(1).optional(),
    ...nodeCommonShape,
  }),
  templates: { text: 'prompt' },
  writes: () => ({ vars: ['transferResult'] }),
  run: async (node, rt): Promise<NodeOutcome> => {
    const prompt = rt.prompt(node, 'text') ?? [];
    const { destination, skillGroupId } = node.def;
    if (skillGroupId === undefined) return { kind: 'transfer', prompt, transfer: { destination } };
    const port = rt.ports.skillGroups;
    if (!port) return { kind: 'transfer', prompt, transfer: { destination, skillGroupId } };
    let group: { id: string; name: string } | null;
    try {
      group = await port.find({ streamId: rt.call.streamId, skillGroupId });
    } catch {
      return { kind: 'error', code: 'skill_group_lookup_failed' };
    }
    if (!group) return { kind: 'error', code: 'skill_group_not_found' };
    return {
      kind: 'transfer',
      prompt,
      transfer: { destination, skillGroupId: group.id, skillGroupName: group.name },
    };
  },
});
