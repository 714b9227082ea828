/** Request and answer shapes of batch tests (the public run and status API; operator test suites). */
import { z } from 'zod';

export const RUN_TYPES = ['inDevelopment', 'published'] as const;
export type RunType = (typeof RUN_TYPES)[number];
export const RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const MAX_UTTERANCES = 10_000;

// eslint-disable-next-line no-control-regex -- matching the C0 controls and DEL is the point of this check
const noControlChars = (s: string): boolean => !/[\u0000-\u001f\u007f]/.test(s);
export const suiteName = z
  .string()
  .min(1)
  .max(100)
  .refine(noControlChars, 'must not contain control characters');
/** The app's streamId in the public paths (named `botId` or `streamId` there): the authenticator checks it against the token's app. */
const publicStreamId = z.string().min(1).max(200);

export const suiteParams = z.object({
  streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>'),
  name: suiteName,
});

const entityValue = z.union([z.string().max(1000), z.number(), z.boolean()]);
export const suiteUtterance = z.strictObject({
  utterance: z
    .string()
    .max(2000)
    .refine((s) => s.trim().length > 0, 'must not be empty'),
  /** `None` = no intent expected. */
  intent: z.string().trim().min(1).max(200),
  entities: z
    .array(z.strictObject({ name: z.string().trim().min(1).max(100), value: entityValue }))
    .max(50)
    .optional(),
});
export type SuiteUtterance = z.infer<typeof suiteUtterance>;

export const suiteBody = z.strictObject({ utterances: z.array(suiteUtterance).min(1).max(MAX_UTTERANCES) });

export const suiteAnswer = z.object({
  id: z.string(),
  name: z.string(),
  streamId: z.string(),
  utteranceCount: z.number(),
  utterances: z.array(suiteUtterance),
  createdOn: z.string(),
  updatedOn: z.string(),
});
export type SuiteRecord = z.infer<typeof suiteAnswer>;
export const suiteSummary = suiteAnswer.omit({ utterances: true });

export const runParams = z.object({ botId: publicStreamId, testSuiteName: suiteName });
export const runBody = z.object({
  runType: z
    .enum(RUN_TYPES)
    .optional()
    .describe(
      "inDevelopment: the agent's latest trained draft (the published version while there is none); published: the published version; absent: the version the app's test sandbox answers from",
    ),
});
export const botStatusParams = z.object({
  botId: publicStreamId,
  testSuiteName: suiteName,
  testRunId: z.string().min(1).max(100),
});
export const streamStatusParams = z.object({
  streamId: publicStreamId,
  testSuiteName: suiteName,
  testRunId: z.string().min(1).max(100),
});
export const fileParams = z.object({ fileId: z.string().min(1).max(100) });
export const fileQuery = z.object({
  exp: z.string().max(20).optional(),
  sig: z.string().max(200).optional(),
});

export const acceptedAnswer = z.object({
  _id: z.string(),
  status: z.literal('accepted'),
  streamId: z.string(),
  testSuiteId: z.string(),
  testSuiteName: z.string(),
  runType: z.enum(RUN_TYPES),
  botLanguage: z.string(),
  utterance_count: z.number(),
  startTime: z.string(),
  statusUrl: z.string(),
  agentVersion: z
    .string()
    .optional()
    .describe('the agent version this run tests (GET …/agent/versions lists it)'),
});

const counters = z.object({
  ...Object.fromEntries(
    [
      'TP',
      'TN',
      'FP',
      'FN',
      'success',
      'failure',
      'traitSuccess',
      'traitFailure',
      'totalEntitiesCount',
      'matchedEntitiesCount',
      'totalTraitsCount',
      'matchedTraitsCount',
      'failedUtteranceCount',
      'failedEntitiesCount',
    ].map((k) => [k, z.number()]),
  ),
  // None (the fallback) as a class; absent on runs stored before these counters existed
  outOfScopeCount: z.number().optional().describe('utterances scored whose expected intent is None'),
  falseAcceptCount: z.number().optional().describe('of those, routed to an intent'),
  inScopeCount: z.number().optional().describe('utterances scored whose expected intent is an intent'),
  inScopeCorrectCount: z.number().optional().describe('of those, routed to the expected intent'),
  falseRejectCount: z.number().optional().describe('of those, routed to None (the fallback)'),
});

const rateOrNull = z.number().min(0).max(1).nullable();
const confusionMatrix = z
  .object({
    labels: z.array(z.string()).describe('intents in alphabetical order, then None (always present, last)'),
    matrix: z
      .array(z.array(z.number()))
      .describe('matrix[i][j] = utterances expected labels[i] and matched labels[j]'),
  })
  .describe('expected (rows) against matched (columns) intent over the utterances scored, None included');
const calibration = z
  .object({
    ece: rateOrNull.describe(
      'expected calibration error over 10 equal-width bins of score against "the best-scoring intent is the expected one"; null when nothing was scored',
    ),
    bins: z.array(
      z.object({
        from: z.number(),
        to: z.number(),
        count: z.number(),
        meanConfidence: rateOrNull.describe('mean score of the bin; null when empty'),
        accuracy: rateOrNull.describe(
          'share whose best-scoring intent (whatever the threshold decided) is the expected one; never right when None is expected; null when empty',
        ),
      }),
    ),
  })
  .describe(
    "the recognizer's score as the probability that the best-scoring intent is the right one: per bin of score, how often it was (an utterance expected None never is); absent for a run whose tally predates this definition",
  );

export const runResult = z.object({
  _id: z.string(),
  isPartialFailure: z.boolean(),
  status: z.enum(RUN_STATUSES),
  testSuiteId: z.string(),
  triggeredBy: z.string(),
  streamId: z.string(),
  botLanguage: z.string(),
  runType: z.enum(RUN_TYPES),
  utterance_count: z.number(),
  startTime: z.string(),
  __v: z.number(),
  agentVersion: z
    .string()
    .optional()
    .describe('the agent version the run tested (absent on runs stored before versions existed)'),
  isAvailable: z.boolean().optional(),
  endTime: z.string().optional(),
  f1_score: z.string().optional(),
  precision: z.string().optional(),
  recall: z.string().optional(),
  fileId: z.string().optional(),
  fileUrl: z.string().optional(),
  results: counters.optional(),
  /** Finished runs (those stored before these figures existed have none): see run-analysis.ts. */
  falseAcceptRate: rateOrNull
    .optional()
    .describe(
      'expected-None utterances routed to an intent / expected-None utterances; null when there are none',
    ),
  inScopeAccuracy: rateOrNull
    .optional()
    .describe(
      'expected-intent utterances routed to that intent / expected-intent utterances (a rejection is an error); null when there are none',
    ),
  confusionMatrix: confusionMatrix.optional(),
  calibration: calibration.optional(),
  /** Failed runs only: why it ended early. */
  reason: z.string().optional(),
});

export const statusAnswer = z.object({
  _id: z.string(),
  streamId: z.string(),
  testSuiteId: z.string(),
  status: z.enum(RUN_STATUSES),
  utterance_count: z.number(),
  totalUtterances: z.number().optional(),
  utterance_ran: z.number().optional(),
  percentage: z.number().optional(),
  result: runResult,
});
export type StatusAnswer = z.infer<typeof statusAnswer>;
