/**
 * The agent-definition check the assist component adds: a transfer node's skill group must be one
 * the app imported. The agent registry runs it whenever an agent is defined.
 */
import type { DefinitionCheck } from '../admin/index.js';

export function skillGroupCheck(listSkillGroupIds: (streamId: string) => Promise<string[]>): DefinitionCheck {
  return async (streamId, definition) => {
    const known = new Set(await listSkillGroupIds(streamId));
    const problems: Array<{ path: string; msg: string }> = [];
    for (const [dialogName, dialog] of Object.entries(definition.dialogs)) {
      for (const [nodeId, node] of Object.entries(dialog.nodes)) {
        const id =
          (node as { type: string; skillGroupId?: string }).type === 'transfer'
            ? (node as { skillGroupId?: string }).skillGroupId
            : undefined;
        if (id && !known.has(id))
          problems.push({
            path: `dialogs.${dialogName}.nodes.${nodeId}.skillGroupId`,
            msg: `Skill group "${id}" has not been imported for this app`,
          });
      }
    }
    return problems;
  };
}
