/**
 * The dialogs of an agent definition as graphs, for the diagram: nodes with their type, the start
 * node, `next` rules (and `jumpToNode` on exceeded retries) as labelled edges, and the nodes that
 * cannot be reached from the start. Works on any parsed JSON, also an invalid definition that is
 * still being written: what cannot be read is left out.
 */

export interface GraphNode {
  id: string;
  type: string;
  start: boolean;
  unreachable: boolean;
  /** A short text of the node: its prompt or text. */
  text: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  label: string;
  /** The target does not exist in the dialog. */
  broken: boolean;
}

export interface DialogGraph {
  name: string;
  start: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Intents that start this dialog, and whether it is the welcome or fallback dialog. */
  entry: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function nodeText(node: Obj): string {
  for (const key of ['prompt', 'text', 'message']) {
    const v = node[key];
    if (typeof v === 'string') return v;
  }
  return '';
}

function edgesOf(id: string, node: Obj, exists: (n: string) => boolean): GraphEdge[] {
  const edges: GraphEdge[] = [];
  if (Array.isArray(node.next)) {
    for (const raw of node.next) {
      if (!isObj(raw) || typeof raw.goto !== 'string') continue;
      const when = str(raw.when).trim();
      edges.push({ from: id, to: raw.goto, label: when || 'always', broken: !exists(raw.goto) });
    }
  }
  const ivr = isObj(node.ivr) ? node.ivr : {};
  const exceed = isObj(ivr.onExceedingRetries) ? ivr.onExceedingRetries : {};
  if (exceed.action === 'jumpToNode' && typeof exceed.node === 'string') {
    edges.push({ from: id, to: exceed.node, label: 'retries exceeded', broken: !exists(exceed.node) });
  }
  return edges;
}

function reachableFrom(start: string, edges: GraphEdge[]): Set<string> {
  const reached = new Set<string>([start]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift()!;
    for (const e of edges) {
      if (e.from === at && !e.broken && !reached.has(e.to)) {
        reached.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return reached;
}

export function dialogGraphs(definition: unknown): DialogGraph[] {
  if (!isObj(definition) || !isObj(definition.dialogs)) return [];
  const entries = new Map<string, string[]>();
  const addEntry = (dialog: string, what: string) =>
    entries.set(dialog, [...(entries.get(dialog) ?? []), what]);
  if (typeof definition.welcomeDialog === 'string') addEntry(definition.welcomeDialog, 'welcome');
  if (typeof definition.fallbackDialog === 'string') addEntry(definition.fallbackDialog, 'fallback');
  if (Array.isArray(definition.intents)) {
    for (const intent of definition.intents)
      if (isObj(intent) && typeof intent.dialog === 'string')
        addEntry(intent.dialog, `intent ${str(intent.name)}`);
  }
  const graphs: DialogGraph[] = [];
  for (const [name, raw] of Object.entries(definition.dialogs)) {
    if (!isObj(raw)) continue;
    const nodesObj = isObj(raw.nodes) ? raw.nodes : {};
    const start = str(raw.start);
    const exists = (n: string) => Object.hasOwn(nodesObj, n);
    const edges = Object.entries(nodesObj).flatMap(([id, node]) =>
      isObj(node) ? edgesOf(id, node, exists) : [],
    );
    const reached = exists(start) ? reachableFrom(start, edges) : new Set<string>();
    const nodes = Object.entries(nodesObj).map(([id, node]) => ({
      id,
      type: isObj(node) ? str(node.type) || '?' : '?',
      start: id === start,
      unreachable: !reached.has(id),
      text: isObj(node) ? nodeText(node) : '',
    }));
    graphs.push({ name, start, nodes, edges, entry: entries.get(name) ?? [] });
  }
  return graphs;
}
