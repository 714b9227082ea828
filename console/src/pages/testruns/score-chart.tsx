/**
 * Precision, recall and F1 per intent as a grouped bar chart (SVG, values written on the bars, a
 * legend in words), and the confusion matrix as a table whose cells are shaded by count.
 */
import type { IntentScore } from './run-results.js';

const SERIES = [
  { key: 'precision', label: 'Precision' },
  { key: 'recall', label: 'Recall' },
  { key: 'f1', label: 'F1' },
] as const;

export function ScoreChart({ intents }: { intents: IntentScore[] }) {
  const rowH = 20;
  const groupH = rowH * SERIES.length + 14;
  const labelW = 150;
  const barW = 300;
  const height = intents.length * groupH + 10;
  const width = labelW + barW + 60;
  const summary = intents.map((i) => `${i.intent}: precision ${pct(i.precision)}, recall ${pct(i.recall)}, F1 ${pct(i.f1)}`).join('; ');
  return (
    <figure class="chart" data-testid="score-chart">
      <figcaption>
        Precision, recall and F1 per intent
        <span class="legend" aria-hidden="true">
          {SERIES.map((s) => (
            <span key={s.key} class={`key ${s.key}`}>
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div class="chart-scroll" tabIndex={0} role="group" aria-label="Chart of precision, recall and F1">
        <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={summary}>
          {intents.map((intent, gi) => {
            const y0 = gi * groupH + 6;
            return (
              <g key={intent.intent}>
                <text x={labelW - 8} y={y0 + (rowH * SERIES.length) / 2 + 4} text-anchor="end" class="chart-label">
                  {intent.intent.length > 20 ? `${intent.intent.slice(0, 19)}…` : intent.intent}
                </text>
                {SERIES.map((s, si) => {
                  const v = intent[s.key];
                  return (
                    <g key={s.key}>
                      <rect x={labelW} y={y0 + si * rowH} width={Math.max(1, v * barW)} height={rowH - 4} class={`bar ${s.key}`} />
                      <text x={labelW + Math.max(1, v * barW) + 6} y={y0 + si * rowH + 12} class="chart-value">
                        {s.label.charAt(0)} {pct(v)}
                      </text>
                    </g>
                  );
                })}
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}

export const pct = (v: number): string => `${(v * 100).toFixed(0)}%`;

export function ConfusionMatrix({ labels, matrix }: { labels: string[]; matrix: number[][] }) {
  const max = Math.max(1, ...matrix.flat());
  return (
    <div class="matrix-scroll" tabIndex={0} role="group" aria-label="Confusion matrix">
      <table class="matrix" data-testid="confusion-matrix">
        <caption>Confusion matrix: expected intent (rows) against matched intent (columns)</caption>
        <thead>
          <tr>
            <th scope="col">Expected ↓ / matched →</th>
            {labels.map((l) => (
              <th key={l} scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((row, i) => (
            <tr key={row}>
              <th scope="row">{row}</th>
              {labels.map((col, j) => {
                const n = matrix[i]?.[j] ?? 0;
                const level = n === 0 ? 0 : Math.min(4, Math.ceil((n / max) * 4));
                return (
                  <td key={col} class={`level-${level}${i === j ? ' diagonal' : ''}`}>
                    {n}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
