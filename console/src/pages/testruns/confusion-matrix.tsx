/**
 * The confusion matrix of a run as a table: expected intents in rows, matched in columns, cells
 * shaded by count. None (no intent: the fallback) is a class of its own, set apart by a heavier
 * rule: its row holds the out-of-scope utterances (off its diagonal: false accepts), its column
 * the utterances sent to the fallback.
 */
export function ConfusionMatrix({ labels, matrix }: { labels: string[]; matrix: number[][] }) {
  const max = Math.max(1, ...matrix.flat());
  return (
    <div class="matrix-scroll" tabIndex={0} role="group" aria-label="Confusion matrix">
      <table class="matrix" data-testid="confusion-matrix">
        <caption>
          Confusion matrix: expected intent (rows) against matched intent (columns); None is the fallback
        </caption>
        <thead>
          <tr>
            <th scope="col">Expected ↓ / matched →</th>
            {labels.map((l) => (
              <th key={l} scope="col" class={l === 'None' ? 'none-class' : undefined}>
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((row, i) => (
            <tr key={row} class={row === 'None' ? 'none-row' : undefined}>
              <th scope="row">{row}</th>
              {labels.map((col, j) => {
                const n = matrix[i]?.[j] ?? 0;
                const level = n === 0 ? 0 : Math.min(4, Math.ceil((n / max) * 4));
                return (
                  <td
                    key={col}
                    class={`level-${level}${i === j ? ' diagonal' : ''}${col === 'None' ? ' none-class' : ''}`}
                  >
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
