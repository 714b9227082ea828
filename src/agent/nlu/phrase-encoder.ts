/**
 * A phrase as the recognizer compares it: the SIF-weighted mean of its word vectors (Arora et al.,
 * "A simple but tough-to-beat baseline for sentence embeddings", 2017: a word weighs a/(a + p(w)),
 * so "the", "my", "to" count for little and "prescription" for much) and its weighted stems. The
 * word probability p(w) comes from the word's frequency rank in the vector package (Zipf's law), so
 * no corpus is needed beside the vectors.
 */
import type { LanguagePack } from './language-pack.js';
import type { WordVectors } from './word-vectors.js';

export interface PhraseTerm {
  word: string;
  stem: string;
  weight: number;
}

export interface EncodedPhrase {
  /** Unit vector (all zeros when no word of the phrase has a vector). */
  vector: Float32Array;
  terms: PhraseTerm[];
}

/** SIF's a: the smaller, the less frequent words count (docs/nlu.md says how it was chosen). */
export const SIF_A = 1e-3;
/** Words in the vocabulary the ranks come from (the vector package's full vocabulary). */
const VOCABULARY = 341_479;
const HARMONIC = Math.log(1.78 * VOCABULARY);

export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

export class PhraseEncoder {
  constructor(
    private readonly pack: LanguagePack,
    readonly vectors: WordVectors,
  ) {}

  /** SIF weight of a word; an unknown word (a name, a typo) is taken as rare. */
  weight(word: string): number {
    const rank = this.vectors.rank(word) ?? VOCABULARY;
    const p = 1 / (rank * HARMONIC);
    return SIF_A / (SIF_A + p);
  }

  encode(text: string): EncodedPhrase {
    const words = this.pack.words(text);
    const vector = new Float32Array(this.vectors.dimensions);
    const terms: PhraseTerm[] = [];
    for (const word of words) {
      const weight = this.weight(word);
      terms.push({ word, stem: this.pack.stem(word), weight });
      const v = this.vectors.vector(word);
      if (!v) continue;
      for (let i = 0; i < vector.length; i += 1)
        vector[i] = (vector[i] as number) + weight * (v[i] as number);
    }
    const norm = Math.sqrt(cosine(vector, vector));
    if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i] = (vector[i] as number) / norm;
    return { vector, terms };
  }
}
