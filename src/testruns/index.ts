/** Batch tests: test suites, background runs with progress and results, signed result files. */
export {
  createTestRunsComponent,
  type TestRunsComponent,
  type TestRunsDeps,
  type TestRunsOptions,
} from './create-test-runs-component.js';
export type {
  RecognizerPort,
  TestRecognizer,
  RecognizerOutcome,
  RecognizerScore,
} from './recognizer-port.js';
export type { AppsLookup } from './run-finisher.js';
