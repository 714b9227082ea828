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
  /** Values found for the expected entities, by entity name; absent = entities are never matched. */
  extractEntities?(text: string, expected: Array<{ name: string }>): Promise<Record<string, unknown>>;
}

export interface RecognizerPort {
  /** The app's recognizer in `language` when its agent speaks it (by tag or primary subtag), else in its default language. */
  forApp(streamId: string, language?: string): Promise<TestRecognizer | null>;
}
