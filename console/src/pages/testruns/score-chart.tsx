/** Precision, recall and F1 per intent as a grouped bar chart (SVG, values written on the bars, a legend in words). */
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
  const summary = intents
    .map((i) => `${i.intent}: precision ${pct(i.precision)}, recall ${pct(i.recall)}, F1 ${pct(i.f1)}`)
    .join('; ');
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
                <text
                  x={labelW - 8}
                  y={y0 + (rowH * SERIES.length) / 2 + 4}
                  text-anchor="end"
                  class="chart-label"
                >
                  {intent.intent.length > 20 ? `${intent.intent.slice(0, 19)}…` : intent.intent}
                </text>
                {SERIES.map((s, si) => {
                  const v = intent[s.key];
                  return (
                    <g key={s.key}>
                      <rect
                        x={labelW}
                        y={y0 + si * rowH}
                        width={Math.max(1, v * barW)}
                        height={rowH - 4}
                        class={`bar ${s.key}`}
                      />
                      <text
                        x={labelW + Math.max(1, v * barW) + 6}
                        y={y0 + si * rowH + 12}
                        class="chart-value"
                      >
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
