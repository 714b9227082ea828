/**
 * Runs a model call under a deadline: the work gets a signal that aborts at `timeoutMs` or when the
 * caller's signal aborts, and the call fails with LlmError('timeout') at that moment even if the
 * work (e.g. a DNS lookup) ignores the signal.
 */
import { LlmError } from './llm-error.js';

export async function withDeadline<T>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const fail = () => reject(new LlmError('timeout', `No model answer within ${timeoutMs} ms`));
    controller.signal.addEventListener('abort', fail, { once: true });
    timer = setTimeout(() => controller.abort(), Math.max(1, timeoutMs));
  });
  deadline.catch(() => undefined);
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const running = work(controller.signal);
    running.catch(() => undefined);
    return await Promise.race([running, deadline]);
  } catch (err) {
    if (
      controller.signal.aborted &&
      !(err instanceof LlmError && err.code !== 'timeout' && err.code !== 'network')
    ) {
      throw new LlmError('timeout', `No model answer within ${timeoutMs} ms`);
    }
    throw err;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}
