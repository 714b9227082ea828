/**
 * The diagram of an agent's dialogs: one drawing per dialog, nodes as boxes by type, `next` rules
 * as labelled arrows, the start node marked and unreachable nodes flagged (in words as well as in
 * style). Laid out with dagre (@dagrejs/dagre); drawn as SVG. A text version follows each drawing.
 */
import dagre from '@dagrejs/dagre';
import type { DialogGraph } from './dialog-graph.js';

const NODE_W = 190;
const NODE_H = 62;
const charW = 6.6;

interface Laid {
  width: number;
  height: number;
  nodes: Array<{ id: string; x: number; y: number; missing: boolean }>;
  edges: Array<{
    points: Array<{ x: number; y: number }>;
    label: string;
    x: number;
    y: number;
    broken: boolean;
    key: string;
  }>;
}

const MISSING = '\u0000missing:';

function layout(graph: DialogGraph): Laid {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 36, ranksep: 56, edgesep: 16, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: NODE_W, height: NODE_H });
  graph.edges.forEach((e, i) => {
    const to = e.broken ? `${MISSING}${e.to}` : e.to;
    if (e.broken && !g.hasNode(to)) g.setNode(to, { width: NODE_W, height: 40 });
    const label = e.label.length > 28 ? `${e.label.slice(0, 27)}…` : e.label;
    g.setEdge(e.from, to, { label, width: label.length * charW + 8, height: 18, labelpos: 'c' }, `e${i}`);
  });
  dagre.layout(g);
  const info = g.graph() as { width?: number; height?: number };
  const nodes = g.nodes().map((id) => {
    const n = g.node(id) as { x: number; y: number };
    return { id, x: n.x, y: n.y, missing: id.startsWith(MISSING) };
  });
  const edges = g.edges().map((ref, i) => {
    const e = g.edge(ref) as { points: Array<{ x: number; y: number }>; label: string; x: number; y: number };
    const source = graph.edges[Number(ref.name?.slice(1) ?? i)];
    return {
      points: e.points,
      label: e.label,
      x: e.x,
      y: e.y,
      broken: source?.broken ?? false,
      key: ref.name ?? String(i),
    };
  });
  return { width: info.width ?? 200, height: info.height ?? 100, nodes, edges };
}

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function Drawing({ graph }: { graph: DialogGraph }) {
  const laid = layout(graph);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const markerId = `arrow-${graph.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const summary = `Dialog ${graph.name}: ${graph.nodes.length} nodes, start ${graph.start || 'not set'}${
    graph.nodes.some((n) => n.unreachable)
      ? `, unreachable: ${graph.nodes
          .filter((n) => n.unreachable)
          .map((n) => n.id)
          .join(', ')}`
      : ''
  }`;
  return (
    <svg
      class="diagram"
      viewBox={`0 0 ${laid.width} ${laid.height}`}
      width={laid.width}
      height={laid.height}
      role="img"
      aria-label={summary}
    >
      <defs>
        <marker
          id={markerId}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="8"
          markerHeight="8"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
        </marker>
      </defs>
      {laid.edges.map((e) => (
        <g key={e.key} class={e.broken ? 'edge broken' : 'edge'}>
          <polyline
            points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
            marker-end={`url(#${markerId})`}
          />
          <rect
            x={e.x - (e.label.length * charW + 8) / 2}
            y={e.y - 9}
            width={e.label.length * charW + 8}
            height={18}
            rx={4}
            class="edge-label-bg"
          />
          <text x={e.x} y={e.y + 4} text-anchor="middle" class="edge-label">
            {e.label}
          </text>
        </g>
      ))}
      {laid.nodes.map((n) => {
        const node = byId.get(n.id);
        if (!node) {
          return (
            <g key={n.id} class="node missing" transform={`translate(${n.x - NODE_W / 2},${n.y - 20})`}>
              <rect width={NODE_W} height={40} rx={6} />
              <text x={10} y={25}>
                missing: {clip(n.id.slice(MISSING.length), 22)}
              </text>
            </g>
          );
        }
        const cls = `node type-${node.type}${node.start ? ' start' : ''}${node.unreachable ? ' unreachable' : ''}`;
        return (
          <g
            key={n.id}
            class={cls}
            transform={`translate(${n.x - NODE_W / 2},${n.y - NODE_H / 2})`}
            data-node={n.id}
          >
            <rect width={NODE_W} height={NODE_H} rx={6} />
            <text x={10} y={17} class="node-type">
              {node.type}
              {node.start ? ' · start' : ''}
              {node.unreachable ? ' · unreachable' : ''}
            </text>
            <text x={10} y={35} class="node-id">
              {clip(node.id, 24)}
            </text>
            <text x={10} y={52} class="node-text">
              {clip(node.text, 30)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function AsText({ graph }: { graph: DialogGraph }) {
  return (
    <details class="as-text">
      <summary>Dialog {graph.name} as text</summary>
      <ul>
        {graph.nodes.map((n) => (
          <li key={n.id}>
            <strong>{n.id}</strong> ({n.type}){n.start ? ', start' : ''}
            {n.unreachable ? ', unreachable from the start' : ''}
            {graph.edges.filter((e) => e.from === n.id).length ? ': ' : ''}
            {graph.edges
              .filter((e) => e.from === n.id)
              .map((e) => `→ ${e.to}${e.broken ? ' (missing)' : ''} when ${e.label}`)
              .join('; ')}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function DialogDiagram({ graphs }: { graphs: DialogGraph[] }) {
  if (graphs.length === 0) return <p class="empty">No dialogs to draw yet.</p>;
  return (
    <div class="diagrams" data-testid="diagram">
      {graphs.map((g) => (
        <figure key={g.name} class="dialog-figure">
          <figcaption>
            <strong>{g.name}</strong>
            {g.entry.length ? <span class="muted"> · started by {g.entry.join(', ')}</span> : null}
            {g.nodes.some((n) => n.unreachable) ? (
              <span class="warn"> · {g.nodes.filter((n) => n.unreachable).length} unreachable</span>
            ) : null}
          </figcaption>
          <div class="diagram-scroll" tabIndex={0} role="group" aria-label={`Diagram of dialog ${g.name}`}>
            <Drawing graph={g} />
          </div>
          <AsText graph={g} />
        </figure>
      ))}
    </div>
  );
}
