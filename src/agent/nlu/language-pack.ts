/**
 * What the recognizer needs to know of a language: how to cut an utterance into words, how to bring
 * a word to its stem, and word vectors. English uses nlp.js's English tools and GloVe vectors;
 * Spanish nlp.js's Spanish tools (normaliser, tokenizer, stemmer with its dictionary) and subword
 * vectors (no pretrained Spanish vectors are in the registry: subword-vectors.ts).
 */
import { vendorModules } from '../vendor-modules.js';
import { subwordVectors } from './subword-vectors.js';
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

/**
 * Spanish function words, roughly most frequent first (accents dropped, as the normaliser drops
 * them): they get a small SIF weight, every other word counts as a content word.
 */
const SPANISH_FREQUENT = (
  'de la que el en y a los se del las un por con no una su para es al lo como mas o pero sus le ha me si ' +
  'sin sobre este ya entre cuando todo esta ser son dos tambien fue habia era muy anos hasta desde esta ' +
  'mi porque que solo han yo hay vez puede todos asi nos ni parte tiene el uno donde bien tiempo mismo ' +
  'ese ahora cada e vida otro despues te otros aunque esa eso hace otra gobierno tan durante siempre dia ' +
  'tanto ella tres si dijo sido gran pais segun menos mundo ano antes estado contra sino forma caso nada ' +
  'hacer general estaba poco estos presidente mayor ante unos les algo hacia casa ellos ayer hecho ' +
  'primera mucho mientras ademas quien momento millones esto espana hombre estan pues hoy lugar madrid ' +
  'nacional trabajo otras mejor nuevo decir algunos entonces todas dias debe politica como casi toda ' +
  'tal luego pasado medio estas sea tenia nunca poder aqui ver veces embargo partido personas grupo ' +
  'cuenta pueden tienen misma nueva cual fueron mujer frente jose tras cosas fin ciudad he social ' +
  'manera tener sistema sera historia muchos juan tipo cuatro dentro nuestro punto dice ello cualquier ' +
  'noche aun agua parece haber situacion fuera bajo grandes nuestra ejemplo acuerdo habian usted ' +
  'estados hizo nadie paises horas posible tarde ley importante guerra desarrollo proceso realidad ' +
  'sentido lado mi tu cambio alli mano eran estar san numero sociedad unas centro padre gente final ' +
  'quiero quisiera necesito puedo por favor gracias hola'
).split(' ');

/** nlp.js's Spanish normaliser (accents and case dropped), tokenizer and stemmer. */
function spanishPack(): LanguagePack {
  const tokenizer = new vendorModules.TokenizerEs();
  const stemmer = new vendorModules.StemmerEs();
  const normalizer = new vendorModules.NormalizerEs();
  const stem = (word: string): string => stemmer.stemWord(word);
  let vectors: WordVectors | undefined;
  return {
    language: 'es',
    words: (text) => tokenizer.tokenize(normalizer.normalize(text), true).filter((w) => w !== ''),
    stem,
    vectors: () => {
      vectors ??= subwordVectors(SPANISH_FREQUENT, stem);
      return Promise.resolve(vectors);
    },
  };
}

const packs = new Map<string, LanguagePack>();

/** The primary language subtag of a tag: es-US → es. */
export function primaryLanguage(tag: string): string {
  return tag.split('-')[0]!.toLowerCase();
}

/** The languages that have a pack of their own; any other language is served by the English pack. */
export const PACKED_LANGUAGES = ['en', 'es'] as const;

/** The pack of a language tag (en, en-US, es, es-MX…); English for a language that has none. */
export function languagePack(language: string): LanguagePack {
  const key = primaryLanguage(language) === 'es' ? 'es' : 'en';
  let pack = packs.get(key);
  if (!pack) {
    pack = key === 'es' ? spanishPack() : englishPack();
    packs.set(key, pack);
  }
  return pack;
}

/**
 * Reads every pack's word vectors (English: about a second, once per process). The service does it
 * as it starts, before it listens, so that the first caller's turn after a start does not wait for
 * it (a turn that waits past the turn deadline gets a wait document).
 */
export async function prepareLanguagePacks(): Promise<void> {
  await Promise.all(PACKED_LANGUAGES.map((l) => languagePack(l).vectors()));
}
