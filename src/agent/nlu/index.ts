/**
 * The recognizer's parts, as the evaluation and calibration tools (bench/) use them to measure and
 * fit what the agent's recognizer does. The service itself reaches them through src/agent/index.ts.
 */
export { calibrationFeatures } from './calibrator.js';
export { AgentIndex, profileIntent } from './intent-features.js';
export { languagePack } from './language-pack.js';
export { PhraseEncoder } from './phrase-encoder.js';
export { englishWordVectors } from './word-vectors.js';
