/**
 * A large agent definition for the training and size-limit tests: the demo agent's dialogs plus as
 * many generated intents as it takes to reach about `bytes` of JSON. Every utterance is distinct
 * (words drawn from a fixed vocabulary by a counter), so nothing is refused as a duplicate.
 */
import { demoAgentDefinition } from '../../src/agent/index.js';

const SYLLABLES = [
  'ba',
  'ko',
  'mi',
  'ru',
  'te',
  'lo',
  'sa',
  'di',
  'ne',
  'po',
  'ga',
  'fu',
  'ze',
  'ha',
  'vi',
  'tor',
  'len',
  'mar',
  'sek',
  'dun',
];
/** A vocabulary of made-up words (syllable pairs): the size of a real agent's vocabulary. */
const WORDS = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => `${a}${b}`));

/**
 * Eight words for the counter `n`: the first three are its digits in base WORDS.length, each shifted
 * by the digits before it (distinct for distinct n below WORDS.length³), the rest follow from them.
 */
function phrase(n: number): string {
  const base = WORDS.length;
  const d = [n % base, Math.floor(n / base) % base, Math.floor(n / base / base) % base];
  const w = [d[0]!, (d[1]! + 17 * d[0]!) % base, (d[2]! + 31 * d[1]! + 7 * d[0]!) % base];
  while (w.length < 8) w.push((w[w.length - 1]! * 13 + w[w.length - 2]! * 7 + w.length) % base);
  return w.map((i) => WORDS[i]!).join(' ');
}

/** `base` is the agent to grow (the demo agent by default; its model node needs a connection that exists to be accepted). */
export function largeAgentDefinition(
  bytes: number,
  opts: { utterancesPerIntent?: number; marker?: string; base?: unknown } = {},
): Record<string, unknown> {
  const perIntent = opts.utterancesPerIntent ?? 40;
  const agent = structuredClone(opts.base ?? demoAgentDefinition) as unknown as {
    intents: Array<{ name: string; dialog: string; utterances: string[] }>;
  };
  let n = 0;
  let size = JSON.stringify(agent).length;
  for (let i = 0; size < bytes; i++) {
    const utterances = Array.from(
      { length: perIntent },
      () => `${opts.marker ?? 'ask about'} ${phrase(n++)}`,
    );
    const intent = { name: `Generated${i}`, dialog: 'fallback', utterances };
    agent.intents.push(intent);
    size += JSON.stringify(intent).length + 1;
  }
  return agent;
}
