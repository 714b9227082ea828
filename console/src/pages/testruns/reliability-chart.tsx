/**
 * The reliability chart of a run: per bin of the recognizer's score (10 equal-width bins), how often
 * the best-scoring intent was the expected one (never, for an utterance expected None), whatever the
 * threshold decided, against the diagonal a calibrated score would follow. An SVG with bars of
 * accuracy, a marker at each bin's mean score and the diagonal; the same figures as a table (the
 * text alternative), with the expected calibration error in the caption.
 */
import type { CalibrationBin } from '../../api/types.js';

const W = 380;
const H = 300;
const PAD = { left: 58, right: 22, top: 12, bottom: 42 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;
const x = (v: number): number => PAD.left + v * PLOT_W;
const y = (v: number): number => PAD.top + (1 - v) * PLOT_H;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

const fixed = (v: number | null, digits = 2): string => (v === null ? '–' : v.toFixed(digits));
const range = (b: CalibrationBin): string => `${b.from.toFixed(1)}–${b.to.toFixed(1)}`;

export function ReliabilityChart({ ece, bins }: { ece: number | null; bins: CalibrationBin[] }) {
  const used = bins.filter((b) => b.count > 0);
  const summary =
    used.length === 0
      ? 'Reliability chart: no utterance was scored.'
      : `Reliability chart. ${used.map((b) => `Score ${range(b)}: ${b.count} utterance${b.count === 1 ? '' : 's'}, mean score ${fixed(b.meanConfidence)}, right ${fixed(b.accuracy)}`).join('; ')}.`;
  return (
    <figure class="chart reliability" data-testid="reliability-chart">
      <figcaption>
        <span>
          Calibration: how often a score is right · expected calibration error{' '}
          <strong data-testid="run-ece">{fixed(ece, 3)}</strong>
        </span>
        <span class="legend" aria-hidden="true">
          <span class="key accuracy">Share right</span>
          <span class="key mean">Mean score</span>
          <span class="key ideal">Calibrated</span>
        </span>
      </figcaption>
      <div class="chart-scroll">
        <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={summary}>
          <rect x={PAD.left} y={PAD.top} width={PLOT_W} height={PLOT_H} class="plot-area" />
          {TICKS.map((t) => (
            <g key={t}>
              <line x1={x(0)} x2={x(1)} y1={y(t)} y2={y(t)} class="grid" />
              <text x={PAD.left - 6} y={y(t) + 4} text-anchor="end" class="chart-label">
                {t.toFixed(2)}
              </text>
              <text x={x(t)} y={H - PAD.bottom + 16} text-anchor="middle" class="chart-label">
                {t.toFixed(2)}
              </text>
            </g>
          ))}
          <text x={PAD.left + PLOT_W / 2} y={H - 6} text-anchor="middle" class="chart-label">
            Score (confidence)
          </text>
          <text
            x={12}
            y={PAD.top + PLOT_H / 2}
            text-anchor="middle"
            class="chart-label"
            transform={`rotate(-90 12 ${PAD.top + PLOT_H / 2})`}
          >
            Share right
          </text>
          {used.map((b) => (
            <rect
              key={b.from}
              x={x(b.from) + 2}
              width={x(b.to) - x(b.from) - 4}
              y={y(b.accuracy ?? 0)}
              height={y(0) - y(b.accuracy ?? 0)}
              class="bar accuracy"
            />
          ))}
          <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} class="ideal" />
          {used.map((b) => (
            <circle key={b.from} cx={x(b.meanConfidence ?? 0)} cy={y(b.accuracy ?? 0)} r={4} class="mean" />
          ))}
        </svg>
      </div>
      <div class="table-scroll" tabIndex={0} role="group" aria-label="Calibration per score bin">
        <table class="list compact" data-testid="calibration-table">
          <caption>
            The chart as a table: utterances per bin of score, their mean score and the share whose
            best-scoring intent was the expected one (an utterance expected None never is)
          </caption>
          <thead>
            <tr>
              <th scope="col">Score</th>
              <th scope="col">Utterances</th>
              <th scope="col">Mean score</th>
              <th scope="col">Share right</th>
            </tr>
          </thead>
          <tbody>
            {bins.map((b) => (
              <tr key={b.from}>
                <th scope="row">{range(b)}</th>
                <td>{b.count}</td>
                <td>{fixed(b.meanConfidence)}</td>
                <td>{fixed(b.accuracy)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
