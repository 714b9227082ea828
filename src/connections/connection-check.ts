/**
 * The agent-definition check the connections component adds: an llm node's connection must exist,
 * as a transfer node's skill group must have been imported. The agent registry runs it whenever an
 * agent is defined.
 */
import type { DefinitionCheck } from '../admin/index.js';

export function connectionCheck(exists: (connectionId: string) => Promise<boolean>): DefinitionCheck {
  return async (_streamId, definition) => {
    const problems: Array<{ path: string; msg: string }> = [];
    for (const [dialogName, dialog] of Object.entries(definition.dialogs)) {
      for (const [nodeId, node] of Object.entries(dialog.nodes)) {
        if (node.type !== 'llm') continue;
        if (!(await exists(node.connectionId))) {
          problems.push({
            path: `dialogs.${dialogName}.nodes.${nodeId}.connectionId`,
            msg: `Model connection "${node.connectionId}" does not exist`,
          });
        }
      }
    }
    return problems;
  };
}
