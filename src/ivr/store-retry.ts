/**
 * How a turn rides out a store fault. The caller is kept on the line by retry documents, each
 * resubmitting the same request (same turn, same input), for as long as a time budget allows,
 * counted from the turn's first fault (`retrySince`, carried by the documents). Before each retry
 * document goes out the answer is held for a pause that doubles with every retry up to a cap, with
 * jitter (half of it fixed, half random), so that the calls one outage caught do not all come back
 * at the same moment when the store returns. The pause is spent on the server, while the browser
 * waits for its fetch (playing its fetch audio, if any): what a browser does with queued prompts
 * before a submit varies, a held answer does not.
 */
export const STORE_RETRY_FIRST_PAUSE_MS = 250;
export const STORE_RETRY_MAX_PAUSE_MS = 2_000;

/**
 * The pause before the retry document that follows `retry` earlier ones, `elapsedMs` after the
 * turn's first fault; null when the budget is spent (the error document goes out instead). Never
 * longer than what is left of the budget.
 */
export function storeRetryPause(
  retry: number,
  elapsedMs: number,
  budgetMs: number,
  random: () => number = Math.random,
): number | null {
  const left = budgetMs - Math.max(0, elapsedMs);
  if (left <= 0) return null;
  const ceiling = Math.min(
    STORE_RETRY_MAX_PAUSE_MS,
    STORE_RETRY_FIRST_PAUSE_MS * 2 ** Math.min(Math.max(0, retry), 16),
  );
  const pause = Math.round(ceiling / 2 + random() * (ceiling / 2));
  return Math.min(pause, left);
}

/**
 * When the turn's first fault happened: the time the retry documents carry, or now for a first
 * fault. A time in the future (another clock, or a forged value) counts from now.
 */
export function firstFaultAt(retry: number, retrySince: number | undefined, now: number): number {
  if (retry <= 0 || retrySince === undefined || retrySince > now) return now;
  return retrySince;
}
