/**
 * What the recognizer needs to know of a language: how to cut an utterance into words, how to bring
 * a word to its stem, and word vectors. English is the only pack for now; a second language
 * (issue 43) adds its own pack here and needs nothing else of the recognizer.
 */
import { vendorModules } from '../vendor-modules.js';
import { englishWordVectors, type WordVectors } from './word-vectors.js';

export interface LanguagePack {
  readonly language: string;
  /** Lower-case words of a text, contractions expanded, punctuation dropped. */
  words(text: string): string[];
  stem(word: string): string;
  vectors(): Promise<WordVectors>;
}

/** nlp.js's English normaliser, tokenizer (it expands "I'd", "don't"…) and Porter-style stemmer. */
function englishPack(): LanguagePack {
  const tokenizer = new vendorModules.TokenizerEn();
  const stemmer = new vendorModules.StemmerEn();
  const normalizer = new vendorModules.NormalizerEn();
  return {
    language: 'en',
    words: (text) => tokenizer.tokenize(normalizer.normalize(text), true).filter((w) => w !== ''),
    stem: (word) => stemmer.stemWord(word),
    vectors: englishWordVectors,
  };
}

let english: LanguagePack | undefined;

/** The pack of an agent's language; English for any language that has none yet (as before issue 43). */
export function languagePack(language: string): LanguagePack {
  void language;
  english ??= englishPack();
  return english;
}
