/**
 * The p99 harness of the load tests: a scripted-browser client that times every turn, rounds of
 * booking calls through it, the nearest-rank p99, and the service's longest event-loop delay. A
 * test takes a baseline and a loaded run with the same client and compares their p99s.
 */
import { BOOKING, expectBooked } from '../reliability/booking-call.js';
import { RoundRobinClient, runScriptedCall, type Answer } from '../reliability/scripted-browser.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Times every request it sends (when it started, how long until its answer). */
export class TimedClient extends RoundRobinClient {
  readonly turns: Array<{ at: number; ms: number }> = [];

  override async post(path: string, params: Record<string, string>, only?: string): Promise<Answer> {
    const at = performance.now();
    const answer = await super.post(path, params, only);
    this.turns.push({ at, ms: performance.now() - at });
    return answer;
  }

  /** The durations (ms) of the turns that started in [from, to). */
  within(from: number, to: number): number[] {
    return this.turns.filter((t) => t.at >= from && t.at < to).map((t) => t.ms);
  }
}

/** The value below which 99% of the samples lie (nearest rank). */
export const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)]!;
};

/** The service's longest event-loop delay since the last read, in ms, for the log (prom-client resets it on every scrape). */
export async function eventLoopLagMax(baseUrl: string): Promise<number> {
  const text = await fetch(`${baseUrl}/metrics`).then((r) => r.text());
  const m = /^\w*nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  return m ? Math.round(Number(m[1]) * 1000) : NaN;
}

/** `calls` booking calls at once on `startPath`, each caller answering after `promptMs` of prompts; each must end booked. */
export async function bookingRound(
  client: TimedClient,
  opts: { startPath: string; calls: number; promptMs: number; callId: (i: number) => string },
): Promise<void> {
  const traces = await Promise.all(
    Array.from({ length: opts.calls }, (_, i) =>
      runScriptedCall({
        client,
        startPath: opts.startPath,
        callId: opts.callId(i),
        say: BOOKING,
        onDocument: async () => {
          await sleep(opts.promptMs);
        },
      }),
    ),
  );
  traces.forEach(expectBooked);
}
