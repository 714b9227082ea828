/**
 * The HWU64 sample (test/fixtures/nlu) cut into what `eval:nlu` and the calibrator fit need: a fixed
 * split of the intents into a tuning part and a report part (a method is chosen and fitted on the
 * first, figures are reported on the second), out-of-scope intents never put in any agent, and
 * seeded draws of agents (n intents, 10 training phrases each) with their test utterances.
 */
import { readFileSync } from 'node:fs';

export interface NluDataset {
  intents: Record<string, string[]>;
}

/** Open-domain intents that no agent ever gets: their utterances are the out-of-scope set. */
export const OUT_OF_SCOPE_INTENTS = ['general_quirky', 'qa_factoid'] as const;
/** Phrases per intent an agent is trained on (the setting). */
export const TRAINING_PHRASES = 10;
/** An intent goes into an agent only with at least this many utterances (10 to train, 5 to test). */
const MIN_UTTERANCES = TRAINING_PHRASES + 5;

export function loadNluDataset(): NluDataset {
  const url = new URL('../../test/fixtures/nlu/hwu64-sample.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as NluDataset;
}

/** mulberry32: a small seeded generator, so every draw is the same from run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export type Part = 'tune' | 'report';

/** The fixed split of the in-scope intents (seed 37): half to tune on, half to report on. */
export function partIntents(data: NluDataset, part: Part): string[] {
  const names = Object.keys(data.intents)
    .filter((n) => !(OUT_OF_SCOPE_INTENTS as readonly string[]).includes(n))
    .sort();
  const order = shuffled(names, seededRandom(37));
  const half = Math.ceil(order.length / 2);
  return (part === 'tune' ? order.slice(0, half) : order.slice(half)).sort();
}

export interface DrawnAgent {
  intents: Array<{ name: string; utterances: string[] }>;
  /** Utterances of the agent's intents that it was not trained on. */
  inScope: Array<{ text: string; intent: string }>;
  /** Utterances of the part's intents left out of this agent. */
  heldOut: string[];
  /** Utterances of OUT_OF_SCOPE_INTENTS. */
  outOfScope: string[];
}

/** One agent of `size` intents drawn from a part, with its test sets. */
export function drawAgent(data: NluDataset, part: Part, size: number, random: () => number): DrawnAgent {
  const pool = partIntents(data, part);
  const eligible = pool.filter((n) => (data.intents[n]?.length ?? 0) >= MIN_UTTERANCES);
  if (eligible.length < size) throw new Error(`part ${part} has ${eligible.length} intents with enough utterances, fewer than ${size}`);
  const chosen = shuffled(eligible, random).slice(0, size).sort();
  const intents: DrawnAgent['intents'] = [];
  const inScope: DrawnAgent['inScope'] = [];
  for (const name of chosen) {
    const all = shuffled(data.intents[name] ?? [], random);
    intents.push({ name, utterances: all.slice(0, TRAINING_PHRASES) });
    for (const text of all.slice(TRAINING_PHRASES)) inScope.push({ text, intent: name });
  }
  const heldOut = pool.filter((n) => !chosen.includes(n)).flatMap((n) => data.intents[n] ?? []);
  const outOfScope = OUT_OF_SCOPE_INTENTS.flatMap((n) => data.intents[n] ?? []);
  return { intents, inScope, heldOut, outOfScope };
}
