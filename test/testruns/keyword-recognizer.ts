/**
 * A small real recognizer for batch-test tests: an intent scores hits/(hits+1) over its keywords
 * (whole words, case-folded); the best intent at or above the threshold matches, else None. It
 * finds a `city` entity as the capitalised word after "to". `failOn` makes it throw; `costMs`
 * makes each call spend that much CPU (to load the event loop).
 */
import type { TestRecognizer } from '../../src/testruns/index.js';

export function keywordRecognizer(
  intents: Record<string, string[]>,
  opts: { threshold?: number; language?: string; failOn?: RegExp; costMs?: number } = {},
): TestRecognizer {
  const threshold = opts.threshold ?? 0.5;
  return {
    language: opts.language ?? 'en',
    threshold,
    async recognize(text) {
      if (opts.failOn?.test(text)) throw new Error('recognizer failure');
      if (opts.costMs) {
        const until = performance.now() + opts.costMs;
        while (performance.now() < until);
      }
      const words = new Set(
        text
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter(Boolean),
      );
      const scores = Object.entries(intents)
        .map(([intent, keys]) => {
          const hits = keys.filter((k) => words.has(k)).length;
          return { intent, score: hits / (hits + 1) };
        })
        .sort((a, b) => b.score - a.score);
      const best = scores[0];
      return best && best.score >= threshold
        ? { intent: best.intent, score: best.score, scores }
        : { intent: 'None', score: best?.score ?? 0, scores };
    },
    async extractEntities(text, expected) {
      const found: Record<string, unknown> = {};
      const city = /\bto\s+([A-Z][a-z]+)/.exec(text);
      if (city && expected.some((e) => e.name === 'city')) found.city = city[1];
      return found;
    },
  };
}

/** Wraps a recognizer so that every call after the first `passFirst` waits until release(). */
export function gatedRecognizer(inner: TestRecognizer, passFirst: number) {
  let calls = 0;
  let release!: () => void;
  let signalReached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (signalReached = resolve));
  const recognizer: TestRecognizer = {
    ...inner,
    async recognize(text) {
      calls++;
      if (calls > passFirst) {
        signalReached();
        await gate;
      }
      return inner.recognize(text);
    },
  };
  return { recognizer, release, reached };
}
