/**
 * The port through which batch tests reach an app's intent recognizer. The lead wires it to the
 * agent registry; tests pass a small recognizer of their own. `forApp` answers null when the app has
 * no agent (the launch is then refused with 422).
 */

export interface RecognizerScore {
  intent: string;
  score: number;
}

export interface RecognizerOutcome {
  /** The matched intent, or 'None' when no intent reached the recognizer's threshold. */
  intent: string;
  score: number;
  scores: RecognizerScore[];
}

export interface TestRecognizer {
  /** Language code of the model, e.g. "en". */
  language: string;
  /** Every language the app's agent speaks (absent: `language` only); a `bot-language` outside them is refused. */
  languages?: readonly string[];
  /** Confidence an intent needs to match; recognize() applies it, the result file reports it. */
  threshold: number;
  recognize(text: string): Promise<RecognizerOutcome>;
  /** The agent version tested (absent: a recognizer that has none, as tests' own). */
  version?: string;
  /** Which the run tests: the draft (the published version while there is none) or the published one (absent: the draft). */
  from?: TestedVersion;
  /** Values found for the expected entities, by entity name; absent = entities are never matched. */
  extractEntities?(text: string, expected: Array<{ name: string }>): Promise<Record<string, unknown>>;
}

/** Which agent version a run tests: the published one, or the latest trained draft (the published one while there is none). */
export type TestedVersion = 'draft' | 'published';

export interface RecognizerPort {
  /**
   * The app's recognizer in `language` when its agent speaks it (by tag or primary subtag), else in
   * its default language; of the version `from` asks for (absent: the one the app's sandbox answers from).
   */
  forApp(streamId: string, language?: string, from?: TestedVersion): Promise<TestRecognizer | null>;
}
