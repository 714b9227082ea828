/**
 * The HWU64 sample (test/fixtures/nlu) cut into what `eval:nlu` and the calibrator fit need: a fixed
 * split of the intents into a tuning part and a report part (a method is chosen and fitted on the
 * first, figures are reported on the second), out-of-scope intents never put in any agent, and
 * seeded draws of agents (n intents, 10 training phrases each) with their test utterances.
 */
import { readFileSync } from 'node:fs';

export interface NluDataset {
  intents: Record<string, string[]>;
  /** The intents never put in an agent (their utterances are the out-of-scope set); HWU64's by default. */
  outOfScope?: readonly string[];
  /** Phrases per intent an agent is trained on (default TRAINING_PHRASES). */
  trainingPhrases?: number;
  /** No tuning/report split: every in-scope intent is in both parts (a set nothing was tuned on). */
  unsplit?: boolean;
  /** The agents' language (default en). */
  language?: string;
}

/**
 * The data sets `eval:nlu` runs on: HWU64 (English; the method was chosen and fitted on its tuning
 * part), and the test sentences of Home Assistant's intents in Spanish and in English (issue 43: the
 * same intents in both languages, nothing tuned on them). The Home Assistant sets are small (most
 * intents have under 15 sentences): agents get 5 training phrases per intent and intents of at least
 * 8 sentences; the questions about the weather, the time and the date, "never mind" and small talk
 * are the out-of-scope set (no home-control agent serves them).
 */
export const DATASETS = ['hwu64', 'ha-es', 'ha-en'] as const;
export type DatasetName = (typeof DATASETS)[number];
const HA_OUT_OF_SCOPE = [
  'weather_HassGetWeather',
  'homeassistant_HassGetCurrentTime',
  'homeassistant_HassGetCurrentDate',
  'homeassistant_HassNevermind',
  'homeassistant_HassRespond',
];

/** Open-domain intents that no agent ever gets: their utterances are the out-of-scope set. */
export const OUT_OF_SCOPE_INTENTS = ['general_quirky', 'qa_factoid'] as const;
/** Phrases per intent an agent is trained on (the setting). */
export const TRAINING_PHRASES = 10;
/** An intent goes into an agent only with at least this many utterances (10 to train, 5 to test). */
const MIN_UTTERANCES = TRAINING_PHRASES + 5;

export function loadNluDataset(name: DatasetName = 'hwu64'): NluDataset {
  const file = name === 'hwu64' ? 'hwu64-sample.json' : `ha-intents-${name.slice(3)}.json`;
  const url = new URL(`../../test/fixtures/nlu/${file}`, import.meta.url);
  const data = JSON.parse(readFileSync(url, 'utf8')) as NluDataset;
  if (name === 'hwu64') return data;
  return { ...data, outOfScope: HA_OUT_OF_SCOPE, trainingPhrases: 5, unsplit: true, language: name.slice(3) };
}

const outOfScopeOf = (data: NluDataset): readonly string[] => data.outOfScope ?? OUT_OF_SCOPE_INTENTS;

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
    .filter((n) => !outOfScopeOf(data).includes(n))
    .sort();
  if (data.unsplit) return names;
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
  const training = data.trainingPhrases ?? TRAINING_PHRASES;
  const minimum = data.trainingPhrases !== undefined ? training + 3 : MIN_UTTERANCES;
  const eligible = pool.filter((n) => (data.intents[n]?.length ?? 0) >= minimum);
  if (eligible.length < size)
    throw new Error(`part ${part} has ${eligible.length} intents with enough utterances, fewer than ${size}`);
  const chosen = shuffled(eligible, random).slice(0, size).sort();
  const intents: DrawnAgent['intents'] = [];
  const inScope: DrawnAgent['inScope'] = [];
  for (const name of chosen) {
    const all = shuffled(data.intents[name] ?? [], random);
    intents.push({ name, utterances: all.slice(0, training) });
    for (const text of all.slice(training)) inScope.push({ text, intent: name });
  }
  const heldOut = pool.filter((n) => !chosen.includes(n)).flatMap((n) => data.intents[n] ?? []);
  const outOfScope = outOfScopeOf(data).flatMap((n) => data.intents[n] ?? []);
  return { intents, inScope, heldOut, outOfScope };
}
