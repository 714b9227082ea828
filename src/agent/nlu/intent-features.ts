/**
 * How near an utterance is to each intent of an agent, as numbers the calibrator turns into a
 * confidence. Per intent:
 *   - similarity: cosine to the nearest training phrase (SIF sentence vectors);
 *   - coverage: the share of the utterance's weight whose stem occurs in the intent's phrases;
 *   - soft coverage: the same with each word credited with its best cosine to a word of the intent
 *     (so "delete" is partly covered by "remove");
 *   - margin and soft margin: similarity and soft coverage minus the best other intent's (two
 *     intents alike make both less sure).
 * Besides, the nearest negative phrase of the intent and the nearest out-of-scope example of the agent.
 */
import { cosine, type EncodedPhrase, type PhraseEncoder } from './phrase-encoder.js';

export interface IntentProfile {
  name: string;
  examples: Float32Array[];
  negatives: Float32Array[];
  stems: ReadonlySet<string>;
  /** The distinct words of the intent's phrases that have a vector and some weight. */
  words: string[];
}

export interface IntentFeatureRow {
  intent: string;
  similarity: number;
  coverage: number;
  softCoverage: number;
  margin: number;
  /** Soft coverage minus the best other intent's. */
  softMargin: number;
  /** Cosine to the intent's nearest negative phrase (-1 when it has none). */
  negative: number;
}

/** Words lighter than this (SIF weight: "the", "to", "my") are not compared word by word: they weigh next to nothing. */
const LIGHT_WORD = 0.05;
/** Words whose cosines to the agent's words are kept for the next utterances (callers repeat words). */
const CACHED_WORDS = 128;

function nearest(vector: Float32Array, among: readonly Float32Array[]): number {
  let best = -1;
  for (const v of among) best = Math.max(best, cosine(vector, v));
  return best;
}

const encodeAll = (encoder: PhraseEncoder, phrases: readonly string[]): EncodedPhrase[] =>
  phrases.map((p) => encoder.encode(p)).filter((e) => e.terms.length > 0);

/** The profile of an intent from its phrases (the whole of "training"). */
export function profileIntent(
  encoder: PhraseEncoder,
  name: string,
  utterances: readonly string[],
  negatives: readonly string[],
): IntentProfile {
  const encoded = encodeAll(encoder, utterances);
  const stems = new Set<string>();
  const words = new Set<string>();
  for (const e of encoded) {
    for (const t of e.terms) {
      stems.add(t.stem);
      if (t.weight >= LIGHT_WORD && encoder.vectors.vector(t.word)) words.add(t.word);
    }
  }
  return {
    name,
    examples: encoded.map((e) => e.vector),
    negatives: encodeAll(encoder, negatives).map((e) => e.vector),
    stems,
    words: [...words],
  };
}

export function outOfScopeVectors(encoder: PhraseEncoder, phrases: readonly string[]): Float32Array[] {
  return encodeAll(encoder, phrases).map((e) => e.vector);
}

/** Cosine of the utterance to its nearest out-of-scope example (-1 when the agent has none). */
export function outOfScopeSimilarity(utterance: EncodedPhrase, examples: readonly Float32Array[]): number {
  return nearest(utterance.vector, examples);
}

/**
 * The agent's intents with their words in one table, so that each word of an utterance is compared
 * once with every word of the agent rather than once per intent.
 */
export class AgentIndex {
  private readonly table: Float32Array;
  private readonly rowsOf: Int32Array[];
  private readonly size: number;
  private readonly cache = new Map<string, Float32Array>();

  constructor(
    private readonly encoder: PhraseEncoder,
    readonly profiles: readonly IntentProfile[],
  ) {
    const rows = new Map<string, number>();
    for (const p of profiles) for (const w of p.words) if (!rows.has(w)) rows.set(w, rows.size);
    const dims = encoder.vectors.dimensions;
    this.size = rows.size;
    this.table = new Float32Array(rows.size * dims);
    for (const [word, row] of rows) this.table.set(encoder.vectors.vector(word) as Float32Array, row * dims);
    this.rowsOf = profiles.map((p) => Int32Array.from(p.words.map((w) => rows.get(w) as number)));
  }

  /** Cosines of a word to every word of the agent (undefined without a vector), from the cache when it can. */
  private cosines(word: string, dims: number): Float32Array | undefined {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const v = this.encoder.vectors.vector(word);
    if (!v) return undefined;
    const table = this.table;
    const out = new Float32Array(this.size);
    for (let r = 0, base = 0; r < this.size; r += 1, base += dims) {
      let sum = 0;
      for (let i = 0; i < dims; i += 1) sum += (v[i] as number) * (table[base + i] as number);
      out[r] = sum;
    }
    if (this.cache.size >= CACHED_WORDS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(word, out);
    return out;
  }

  features(utterance: EncodedPhrase): IntentFeatureRow[] {
    const dims = this.encoder.vectors.dimensions;
    const totalWeight = utterance.terms.reduce((s, t) => s + t.weight, 0) || 1;
    // cosine of each weighty word of the utterance to each word of the agent
    const sims = utterance.terms.map((t) => (t.weight < LIGHT_WORD ? undefined : this.cosines(t.word, dims)));
    const rows = this.profiles.map((p, k) => {
      const intentRows = this.rowsOf[k] as Int32Array;
      let covered = 0;
      let soft = 0;
      utterance.terms.forEach((t, i) => {
        if (p.stems.has(t.stem)) {
          covered += t.weight;
          soft += t.weight;
          return;
        }
        const s = sims[i];
        if (!s) return;
        let best = 0;
        for (const r of intentRows) best = Math.max(best, s[r] as number);
        soft += t.weight * best;
      });
      return {
        intent: p.name,
        similarity: nearest(utterance.vector, p.examples),
        coverage: covered / totalWeight,
        softCoverage: soft / totalWeight,
        margin: 0,
        softMargin: 0,
        negative: nearest(utterance.vector, p.negatives),
      };
    });
    for (const row of rows) {
      let other = 0;
      let otherSoft = 0;
      for (const o of rows) {
        if (o === row) continue;
        other = Math.max(other, o.similarity);
        otherSoft = Math.max(otherSoft, o.softCoverage);
      }
      row.margin = row.similarity - other;
      row.softMargin = row.softCoverage - otherSoft;
    }
    return rows;
  }
}
