/**
 * Intent recognition with nlp.js (Nlp + LangEn, neural NLU), trained once from the intents'
 * utterances. The trained model exports to a JSON string that another process imports without
 * retraining; the export carries a fingerprint of the training data so a stale model is refused.
 */
import { createHash } from 'node:crypto';
import { vendorModules, type NlpInstance } from './vendor-modules.js';
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
/** 2: neural weights as base64 doubles, no training sentences (1, with them, still loads). */
const MODEL_VERSION = 2;
const LOADABLE_VERSIONS = [1, 2];
const LOCALE = 'en';

interface ModelEnvelope {
  format: typeof MODEL_FORMAT;
  version: number;
  language: string;
  fingerprint: string;
  nlp: unknown;
}

/** Quiet, minimal nlp.js: no autosave/autoload, no sentiment, no NER pass. */
function createNlp(): NlpInstance {
  const container = vendorModules.containerBootstrap();
  container.use(vendorModules.LangEn);
  return new vendorModules.Nlp(
    {
      languages: [LOCALE],
      autoSave: false,
      autoLoad: false,
      calculateSentiment: false,
      forceNER: false,
      nlu: { log: false },
    },
    container,
  );
}

/** Hash of what the model was trained from (language, intent names, utterances). */
export function intentFingerprint(language: string, intents: readonly IntentTrainingData[]): string {
  const data = [...intents]
    .map((i) => [i.name, [...i.utterances].map((u) => u.trim()).sort()] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([language, data])).digest('hex').slice(0, 32);
}

/** The parts of an nlp.js export that `compactModel` changes (the rest is kept as it is). */
interface NlpModel {
  nluManager?: {
    extraSentences?: unknown[];
    domainManagers?: Record<string, { sentences?: unknown[]; domains?: Record<string, { neuralNetwork?: { perceptrons?: Array<ArrayLike<number> | string> } }> }>;
  };
}

/**
 * Makes an exported model cheaper to parse: an instance parses it on its event loop, so its size is
 * a pause of every turn there. Left out: the training sentences (only training reads them) and the
 * language guesser's copy of every utterance (recognition always names its locale, so the guesser
 * is never asked; rebuilding its trigrams was most of an import). The neural weights (float32
 * values, the bias a double) go as base64 of float64s: exactly the same numbers, a fraction of the
 * cost of parsing them as JSON numbers.
 */
function compactModel(nlp: NlpModel): NlpModel {
  const nlu = nlp.nluManager;
  if (Array.isArray(nlu?.extraSentences)) nlu.extraSentences = [];
  for (const manager of Object.values(nlu?.domainManagers ?? {})) {
    if (Array.isArray(manager.sentences)) manager.sentences = [];
    for (const domain of Object.values(manager.domains ?? {})) {
      const net = domain.neuralNetwork;
      if (!net?.perceptrons) continue;
      net.perceptrons = net.perceptrons.map((p) => (typeof p === 'string' ? p : Buffer.from(Float64Array.from(p).buffer).toString('base64')));
    }
  }
  return nlp;
}

/** The inverse of `compactModel` for nlp.js import: the weights as Float64Arrays (it only indexes them). */
function expandModel(model: object): object {
  const nlp = model as NlpModel;
  for (const manager of Object.values(nlp.nluManager?.domainManagers ?? {})) {
    for (const domain of Object.values(manager.domains ?? {})) {
      const net = domain.neuralNetwork;
      if (!net?.perceptrons) continue;
      net.perceptrons = net.perceptrons.map((p) => {
        if (typeof p !== 'string') return p;
        const bytes = Buffer.from(p, 'base64');
        // a copy: a small Buffer may sit in the shared pool at an offset a Float64Array cannot start at
        return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      });
    }
  }
  return nlp;
}

export class IntentModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IntentModelError';
  }
}

export class IntentRecognizer {
  private constructor(
    private readonly nlp: NlpInstance,
    readonly language: string,
    readonly threshold: number,
    readonly fingerprint: string,
  ) {}

  /** Trains from the utterances (the only place training happens). */
  static async train(intents: readonly IntentTrainingData[], options: IntentTrainingOptions): Promise<IntentRecognizer> {
    const nlp = createNlp();
    for (const intent of intents) {
      for (const utterance of intent.utterances) {
        if (utterance.trim() !== '') nlp.addDocument(LOCALE, utterance, intent.name);
      }
    }
    await nlp.train();
    return new IntentRecognizer(nlp, options.language, options.threshold, intentFingerprint(options.language, intents));
  }

  /**
   * Imports an exported model. With `expectedFingerprint`, a model trained from other utterances is
   * refused (IntentModelError) rather than silently giving wrong intents.
   */
  static load(modelJson: string, options: { threshold: number; expectedFingerprint?: string }): IntentRecognizer {
    let envelope: ModelEnvelope;
    try {
      envelope = JSON.parse(modelJson) as ModelEnvelope;
    } catch {
      throw new IntentModelError('the intent model is not JSON');
    }
    if (envelope?.format !== MODEL_FORMAT || !LOADABLE_VERSIONS.includes(envelope.version) || typeof envelope.nlp !== 'object' || envelope.nlp === null) {
      throw new IntentModelError(`not an intent model of format ${MODEL_FORMAT} v${MODEL_VERSION}`);
    }
    if (options.expectedFingerprint !== undefined && envelope.fingerprint !== options.expectedFingerprint) {
      throw new IntentModelError('the intent model was trained from other intents or utterances: retrain it');
    }
    const nlp = createNlp();
    nlp.import(expandModel(envelope.nlp));
    return new IntentRecognizer(nlp, envelope.language, options.threshold, envelope.fingerprint);
  }

  /** The trained model as a JSON string (for `load` in another process), made compact by `compactModel`. */
  export(): string {
    const nlp = compactModel(JSON.parse(this.nlp.export(true)) as NlpModel);
    const envelope: ModelEnvelope = {
      format: MODEL_FORMAT,
      version: MODEL_VERSION,
      language: this.language,
      fingerprint: this.fingerprint,
      nlp,
    };
    return JSON.stringify(envelope);
  }

  /** Best intent with all scores; intent 'None' when the best score is below the threshold. */
  async recognize(text: string): Promise<RecognitionResult> {
    const utterance = text.trim();
    if (utterance === '') return { intent: 'None', score: 0, scores: [], source: 'nlu' };
    const out = await this.nlp.classify(LOCALE, utterance);
    const scores = (out.classifications ?? [])
      .filter((c) => c.intent !== 'None')
      .map((c) => ({ intent: c.intent, score: c.score }))
      .sort((a, b) => b.score - a.score);
    const best = scores[0];
    const tie = best !== undefined && scores[1] !== undefined && scores[1].score === best.score;
    if (!best || tie || best.score < this.threshold || best.score <= 0) {
      return { intent: 'None', score: best?.score ?? 0, scores, source: 'nlu' };
    }
    return { intent: best.intent, score: best.score, scores, source: 'nlu' };
  }
}
