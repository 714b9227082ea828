/**
 * `npm run fit:nlu`: fits the recognizer's calibrator (src/agent/nlu/calibrator.ts) and prints the
 * coefficients to paste there. Reproducible: fixed seeds, the tuning half of the HWU64 sample only
 * (eval:nlu reports on the other half).
 *
 * Draws agents of 5, 10 and 20 intents (6 each), computes the recognizer's features for every test
 * utterance (the agent's own intents, held-out intents, out-of-scope intents) against the two
 * intents it covers best, and fits P(this intent is the right answer) by logistic regression. The
 * out-of-scope and held-out utterances together weigh as much as the in-scope ones: the confidence
 * is calibrated for traffic where half the requests are in scope (docs/nlu.md).
 */
import {
  AgentIndex,
  calibrationFeatures,
  languagePack,
  PhraseEncoder,
  profileIntent,
} from '../src/agent/nlu/index.js';
import { fitLogistic } from './lib/logistic-fit.js';
import { drawAgent, loadNluDataset, seededRandom, shuffled } from './lib/nlu-dataset.js';

const DRAWS = 6;
const HELD_OUT_PER_AGENT = 150;
const ROWS_PER_UTTERANCE = 2;

async function main(): Promise<void> {
  const pack = languagePack('en');
  const encoder = new PhraseEncoder(pack, await pack.vectors());
  const data = loadNluDataset();
  const random = seededRandom(7);
  const inScope: Array<{ x: number[]; y: number }> = [];
  const outOfScope: Array<{ x: number[]; y: number }> = [];
  for (const size of [5, 10, 20]) {
    for (let d = 0; d < DRAWS; d += 1) {
      const agent = drawAgent(data, 'tune', size, random);
      const index = new AgentIndex(
        encoder,
        agent.intents.map((i) => profileIntent(encoder, i.name, i.utterances, [])),
      );
      const add = (text: string, truth: string | null): void => {
        const rows = index
          .features(encoder.encode(text))
          .sort((a, b) => b.softCoverage - a.softCoverage)
          .slice(0, ROWS_PER_UTTERANCE);
        for (const row of rows)
          (truth === null ? outOfScope : inScope).push({
            x: calibrationFeatures(row),
            y: row.intent === truth ? 1 : 0,
          });
      };
      for (const u of agent.inScope) add(u.text, u.intent);
      for (const t of agent.outOfScope) add(t, null);
      for (const t of shuffled(agent.heldOut, random).slice(0, HELD_OUT_PER_AGENT)) add(t, null);
    }
  }
  const all = [...inScope, ...outOfScope];
  const weights = all.map((_, i) => (i < inScope.length ? 1 : inScope.length / outOfScope.length));
  const coefficients = fitLogistic(
    all.map((r) => r.x),
    all.map((r) => r.y),
    weights,
  );
  console.log(`rows: ${inScope.length} in scope, ${outOfScope.length} out of scope`);
  console.log(
    `export const CALIBRATION_COEFFICIENTS: readonly number[] = [${coefficients.map((c) => Number(c.toFixed(3))).join(', ')}];`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
