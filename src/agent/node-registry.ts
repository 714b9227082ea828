/**
 * Node types by name. Adding a type: one file under nodes/ and one entry in `nodeModules`.
 */
import type { z } from 'zod';
import type { NodeModule } from './define-node.js';
import { endNode } from './nodes/end-node.js';
import { entityNode } from './nodes/entity-node.js';
import { llmNode } from './nodes/llm-node.js';
import { messageNode } from './nodes/message-node.js';
import { tableNode } from './nodes/table-node.js';
import { transferNode } from './nodes/transfer-node.js';

export const nodeModules = [messageNode, entityNode, llmNode, tableNode, transferNode, endNode] as const;

/** One node of a dialog, whatever its type. */
export type AgentNode = z.output<(typeof nodeModules)[number]['schema']>;

export const nodeRegistry: ReadonlyMap<string, NodeModule> = new Map<string, NodeModule>(
  nodeModules.map((m) => [m.type, m as unknown as NodeModule]),
);

export const nodeTypes: readonly string[] = nodeModules.map((m) => m.type);
