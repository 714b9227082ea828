/**
 * A check of an agent definition against the tables it writes: every literal of a table node's
 * `record` (a number, a boolean, or text with no placeholder) must fit its column's type, and every
 * column must exist. Tables that do not exist yet are not checked (they may be defined later); a
 * template's value is only known in a call, where the table's own check applies.
 */
import type { AgentDefinition } from '../agent/index.js';
import { literalProblem } from './coerce-cell.js';
import type { TablesService } from './tables-service.js';

type Problem = { path: string; msg: string };

export function tableRecordCheck(service: TablesService) {
  return async (_streamId: string, definition: AgentDefinition): Promise<Problem[]> => {
    const problems: Problem[] = [];
    for (const [dialogName, dialog] of Object.entries(definition.dialogs)) {
      for (const [nodeId, node] of Object.entries(dialog.nodes)) {
        if (node.type !== 'table') continue;
        const def = await service.findDefinition(node.table);
        if (!def) continue;
        const columns = new Map(def.columns.map((c) => [c.name, c]));
        for (const [name, value] of Object.entries(node.record)) {
          const path = `dialogs.${dialogName}.nodes.${nodeId}.record.${name}`;
          const column = columns.get(name);
          if (!column) {
            problems.push({ path, msg: `unknown column: the table ${def.tableName} has no column ${name}` });
            continue;
          }
          if (typeof value === 'string' && value.includes('{{')) continue;
          const msg = literalProblem(column, value);
          if (msg) problems.push({ path, msg });
        }
      }
    }
    return problems;
  };
}
