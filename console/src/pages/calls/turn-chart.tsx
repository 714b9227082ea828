/**
 * ASR confidence and latency per turn: an SVG (bars for the turn's duration, a line for the
 * recogniser's confidence where the turn had one) with a title and a description, and the same
 * numbers as a table for screen readers and for reading exact values.
 */
import type { TurnTrace } from '../../api/client.js';

export const confidenceOf = (t: TurnTrace): number | undefined => {
  const raw = t.asr?.confidence ?? t.request.confidence;
  const n = typeof raw === 'number' ? raw : raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
};

export const percent = (n: number | undefined): string => (n === undefined ? '–' : `${Math.round(n * 100)}%`);

const W = 44;
const H = 120;
const LEFT = 48;
const RIGHT = 44;
const TOP = 10;
const BOTTOM = 24;

export function TurnChart({ turns, id }: { turns: TurnTrace[]; id: string }) {
  const maxMs = Math.max(10, ...turns.map((t) => t.durationMs));
  const width = LEFT + turns.length * W + RIGHT;
  const height = TOP + H + BOTTOM;
  const yMs = (ms: number) => TOP + H - (ms / maxMs) * H;
  const yConf = (c: number) => TOP + H - c * H;
  const points = turns
    .map((t, i) => ({ i, c: confidenceOf(t) }))
    .filter((p): p is { i: number; c: number } => p.c !== undefined)
    .map((p) => ({ x: LEFT + p.i * W + W / 2, y: yConf(p.c), c: p.c }));
  const withAsr = points.length;
  const slowest = turns.reduce<TurnTrace | undefined>(
    (a, t) => (!a || t.durationMs > a.durationMs ? t : a),
    undefined,
  );
  const desc = `${turns.length} turns; the slowest took ${slowest?.durationMs ?? 0} ms (turn ${slowest?.turn ?? '–'}); ${withAsr} had a recogniser confidence${
    withAsr
      ? `, from ${percent(Math.min(...points.map((p) => p.c)))} to ${percent(Math.max(...points.map((p) => p.c)))}`
      : ''
  }.`;
  return (
    <figure class="chart turn-chart" data-testid="turn-chart">
      <figcaption>
        Latency and ASR confidence per turn
        <span class="legend" aria-hidden="true">
          <span class="key latency">Latency (ms)</span>
          <span class="key confidence">Confidence</span>
        </span>
      </figcaption>
      <div
        class="chart-scroll"
        tabIndex={0}
        role="group"
        aria-label="Chart of latency and confidence per turn"
      >
        <svg
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
        >
          <title id={`${id}-title`}>Latency and ASR confidence per turn</title>
          <desc id={`${id}-desc`}>{desc}</desc>
          <line x1={LEFT} x2={width - RIGHT} y1={TOP + H} y2={TOP + H} class="axis" />
          <text x={LEFT - 6} y={TOP + 8} text-anchor="end" class="chart-value">
            {maxMs} ms
          </text>
          <text x={LEFT - 6} y={TOP + H} text-anchor="end" class="chart-value">
            0
          </text>
          <text x={width - RIGHT + 6} y={TOP + 8} class="chart-value">
            100%
          </text>
          {turns.map((t, i) => (
            <g key={`${t.turn}-${t.receivedAt}`}>
              <rect
                x={LEFT + i * W + 8}
                y={yMs(t.durationMs)}
                width={W - 16}
                height={Math.max(1, TOP + H - yMs(t.durationMs))}
                class={t.error ? 'bar latency error' : 'bar latency'}
              />
              <text x={LEFT + i * W + W / 2} y={TOP + H + 16} text-anchor="middle" class="chart-label">
                {t.turn}
              </text>
            </g>
          ))}
          {points.length > 1 ? (
            <polyline points={points.map((p) => `${p.x},${p.y}`).join(' ')} class="confidence-line" />
          ) : null}
          {points.map((p) => (
            <circle key={p.x} cx={p.x} cy={p.y} r={4} class="confidence-dot" />
          ))}
        </svg>
      </div>
      <details class="as-text">
        <summary>The chart as a table</summary>
        <table class="list compact" data-testid="turn-chart-table">
          <caption>Latency and ASR confidence per turn</caption>
          <thead>
            <tr>
              <th scope="col">Turn</th>
              <th scope="col">Event</th>
              <th scope="col">Latency</th>
              <th scope="col">Confidence</th>
            </tr>
          </thead>
          <tbody>
            {turns.map((t) => (
              <tr key={`${t.turn}-${t.receivedAt}`}>
                <th scope="row">{t.turn}</th>
                <td>{t.event}</td>
                <td>{t.durationMs} ms</td>
                <td>{percent(confidenceOf(t))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
