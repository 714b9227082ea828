/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) with a small ridge
 * penalty: enough for the handful of features the recognizer's calibrator has.
 */
export function fitLogistic(
  rows: number[][],
  labels: number[],
  weights?: number[],
  ridge = 1e-3,
  iterations = 50,
): number[] {
  const dims = (rows[0]?.length ?? 0) + 1;
  const w = new Array<number>(dims).fill(0);
  const x = (r: number[]): number[] => [...r, 1];
  for (let iter = 0; iter < iterations; iter += 1) {
    const gradient = new Array<number>(dims).fill(0);
    const hessian = Array.from({ length: dims }, () => new Array<number>(dims).fill(0));
    rows.forEach((row, n) => {
      const xi = x(row);
      const z = xi.reduce((s, v, i) => s + v * (w[i] as number), 0);
      const p = 1 / (1 + Math.exp(-z));
      const y = labels[n] as number;
      const k = weights?.[n] ?? 1;
      for (let i = 0; i < dims; i += 1) {
        gradient[i] = (gradient[i] as number) + k * (p - y) * (xi[i] as number);
        for (let j = 0; j < dims; j += 1)
          (hessian[i] as number[])[j] =
            ((hessian[i] as number[])[j] as number) + k * p * (1 - p) * (xi[i] as number) * (xi[j] as number);
      }
    });
    for (let i = 0; i < dims - 1; i += 1) {
      gradient[i] = (gradient[i] as number) + ridge * (w[i] as number) * rows.length;
      (hessian[i] as number[])[i] = ((hessian[i] as number[])[i] as number) + ridge * rows.length;
    }
    const step = solve(hessian, gradient);
    let change = 0;
    for (let i = 0; i < dims; i += 1) {
      w[i] = (w[i] as number) - (step[i] as number);
      change = Math.max(change, Math.abs(step[i] as number));
    }
    if (change < 1e-9) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1)
      if (Math.abs((m[r] as number[])[col] as number) > Math.abs((m[pivot] as number[])[col] as number))
        pivot = r;
    [m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
    const p = (m[col] as number[])[col] as number;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const f = ((m[r] as number[])[col] as number) / p;
      for (let c = col; c <= n; c += 1)
        (m[r] as number[])[c] = ((m[r] as number[])[c] as number) - f * ((m[col] as number[])[c] as number);
    }
  }
  return m.map((row, i) => (row[n] as number) / ((row[i] as number) || 1));
}
