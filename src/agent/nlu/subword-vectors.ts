/**
 * Word vectors for a language that has no pretrained vectors in the registry (Spanish): each word is
 * the unit sum of hashed vectors of its character n-grams (3 to 5 letters, with word boundaries) and
 * of its stem, in the manner of fastText's subword units but without training. Two forms of a word
 * ("reservar", "reservas", "reservación") share most n-grams and so come out near; unrelated words
 * are near orthogonal. It carries no meaning (no synonyms: "quitar" is not near "eliminar"), so the
 * recognizer leans on stems and phrases in that language (docs/nlu.md says what it costs).
 * The frequency rank a SIF weight needs comes from a short list of the language's most frequent
 * words; any other word counts as rare.
 */
import type { WordVectors } from './word-vectors.js';

const DIMENSIONS = 128;
/** Rank given to a word outside the frequent list (taken as a content word). */
const RARE_RANK = 20_000;

/** FNV-1a of a string, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Adds the ±1 pattern of `unit` (four signed coordinates chosen by its hash) to `out`. */
function addHashed(out: Float32Array, unit: string, weight: number): void {
  let h = hash(unit);
  for (let k = 0; k < 4; k += 1) {
    const index = h % DIMENSIONS;
    const sign = (h >>> 16) & 1 ? 1 : -1;
    out[index] = (out[index] as number) + sign * weight;
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
  }
}

class SubwordVectors implements WordVectors {
  readonly dimensions = DIMENSIONS;
  readonly size: number;
  private readonly cache = new Map<string, Float32Array>();
  private readonly ranks: ReadonlyMap<string, number>;

  constructor(
    frequent: readonly string[],
    private readonly stem: (word: string) => string,
  ) {
    this.ranks = new Map(frequent.map((w, i) => [w, i + 1]));
    this.size = RARE_RANK;
  }

  vector(word: string): Float32Array | undefined {
    if (word === '' || /^\d+$/.test(word)) return undefined;
    const kept = this.cache.get(word);
    if (kept) return kept;
    const v = new Float32Array(DIMENSIONS);
    const padded = `<${word}>`;
    for (let n = 3; n <= 5; n += 1)
      for (let i = 0; i + n <= padded.length; i += 1) addHashed(v, padded.slice(i, i + n), 1);
    addHashed(v, `#${this.stem(word)}`, 3);
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm === 0) return undefined;
    for (let i = 0; i < v.length; i += 1) v[i] = (v[i] as number) / norm;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(word, v);
    return v;
  }

  rank(word: string): number | undefined {
    return this.ranks.get(word) ?? RARE_RANK;
  }
}

/** Subword vectors over a language's stemmer and its most frequent words (most frequent first). */
export function subwordVectors(frequent: readonly string[], stem: (word: string) => string): WordVectors {
  return new SubwordVectors(frequent, stem);
}
