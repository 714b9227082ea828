/**
 * Batch-test use cases: store a suite, launch a run (answered at once; executed by a background
 * loop), report a run's status, serve its result file through a signed link.
 */
import { createHash } from 'node:crypto';
import { AppError, isoNow, newId, type Logger, type Principal } from '../platform/index.js';
import type { FileLinks } from './file-links.js';
import type { RecognizerPort, TestRecognizer } from './recognizer-port.js';
import { emptyAnalysis } from './run-analysis.js';
import { emptyCounters } from './run-counters.js';
import type { AppsLookup, FinishRun } from './run-finisher.js';
import { runLoop, type LoopOptions, type RunControl } from './run-loop.js';
import type { RunSupervisor } from './run-supervisor.js';
import { runView } from './run-view.js';
import type { RunMeta, RunState, TestrunsRepository } from './testruns-repository.js';
import type { RunType, StatusAnswer, SuiteRecord, SuiteUtterance } from './testruns-schemas.js';

export interface TestrunsServiceDeps {
  repo: TestrunsRepository;
  apps: AppsLookup;
  recognizers: RecognizerPort;
  supervisor: RunSupervisor;
  links: FileLinks;
  finish: FinishRun;
  logger: Logger;
  loop: LoopOptions;
  /** Counts runs by outcome and utterances tested (metrics). */
  observe?: { run: (outcome: string) => void; utterance: () => void };
}

const SUITE_NOT_FOUND = 'Test Suite not found';
const RUN_NOT_FOUND = 'Test Result not found.';
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const USER_ID = /^u-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const primary = (lang: string): string => lang.split('-')[0]!.toLowerCase();
export const sameLanguage = (a: string, b: string): boolean =>
  a.toLowerCase() === b.toLowerCase() || primary(a) === primary(b);

/** The `bot-language` header, validated; undefined when absent. */
export function languageHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers['bot-language'];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!v) return undefined;
  if (!LANGUAGE.test(v))
    throw AppError.validation([
      { msg: 'must be a language code like en or en-US', path: 'headers.bot-language' },
    ]);
  return v;
}

/** `u-<uuid>`: the token's sub when it has that form, else a stable id derived from the API app. */
export function triggeredBy(principal: Principal): string {
  if (principal.kind === 'app' && principal.sub && USER_ID.test(principal.sub))
    return principal.sub.toLowerCase();
  const who =
    principal.kind === 'app'
      ? `app:${principal.clientId}`
      : principal.kind === 'apiKey'
        ? `key:${principal.id}`
        : principal.kind;
  const h = createHash('sha256').update(`testruns/triggered-by/${who}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `u-${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class TestrunsService {
  constructor(private readonly deps: TestrunsServiceDeps) {}

  async putSuite(streamId: string, name: string, utterances: SuiteUtterance[]): Promise<SuiteRecord> {
    if (!(await this.deps.apps.findApp(streamId))) throw AppError.notFound('App not found');
    return this.deps.repo.putSuite(streamId, name, utterances, isoNow());
  }

  async getSuite(streamId: string, name: string): Promise<SuiteRecord> {
    const suite = await this.deps.repo.getSuite(streamId, name);
    if (!suite) throw AppError.notFound(SUITE_NOT_FOUND);
    return suite;
  }

  async launch(input: {
    streamId: string;
    suiteName: string;
    runType?: RunType | undefined;
    language?: string;
    principal: Principal;
    baseUrl: string;
  }) {
    const { repo, supervisor } = this.deps;
    if (!supervisor.accepting)
      throw new AppError(503, 'shutting_down', 'The service is shutting down; try again shortly', [], {
        'Retry-After': '5',
      });
    const suite = await repo.getSuite(input.streamId, input.suiteName);
    if (!suite) throw AppError.notFound(SUITE_NOT_FOUND);
    const asked =
      input.runType === undefined ? undefined : input.runType === 'published' ? 'published' : 'draft';
    const recognizer = await this.deps.recognizers.forApp(input.streamId, input.language, asked);
    if (!recognizer)
      throw AppError.businessRule('Cannot run the test suite: no agent is set for this app (no agent)');
    const spoken = recognizer.languages ?? [recognizer.language];
    if (input.language && !spoken.some((l) => sameLanguage(input.language!, l))) {
      throw AppError.badRequest(
        `The app's agent speaks ${spoken.join(', ')}, not ${input.language}`,
        'headers.bot-language',
      );
    }
    await supervisor.ensureBeating();
    const meta: RunMeta = {
      _id: newId('tr'),
      streamId: input.streamId,
      testSuiteId: suite.id,
      testSuiteName: suite.name,
      triggeredBy: triggeredBy(input.principal),
      botLanguage: input.language ?? recognizer.language,
      // a run that asks for no version tests the one the sandbox answers from, and says which
      runType: input.runType ?? (recognizer.from === 'published' ? 'published' : 'inDevelopment'),
      utterance_count: suite.utterances.length,
      startTime: isoNow(),
      threshold: recognizer.threshold,
      ...(recognizer.version ? { agentVersion: recognizer.version } : {}),
    };
    const control = await this.create(meta);
    this.spawn(meta, suite.utterances, recognizer, control);
    const statusPath = `/api/public/bot/${encodeURIComponent(meta.streamId)}/testsuite/${encodeURIComponent(suite.name)}/${meta._id}/status`;
    return {
      _id: meta._id,
      status: 'accepted' as const,
      streamId: meta.streamId,
      testSuiteId: meta.testSuiteId,
      testSuiteName: meta.testSuiteName,
      runType: meta.runType,
      botLanguage: meta.botLanguage,
      utterance_count: meta.utterance_count,
      startTime: meta.startTime,
      statusUrl: `${input.baseUrl}${statusPath}`,
      ...(meta.agentVersion ? { agentVersion: meta.agentVersion } : {}),
    };
  }

  /** Stores the run under the suite's lock (one run per suite at a time); a lock left by a run no longer running is dropped. */
  private async create(meta: RunMeta): Promise<RunControl> {
    const { repo, supervisor } = this.deps;
    const ref = { streamId: meta.streamId, runId: meta._id };
    for (let attempt = 0; attempt < 2; attempt++) {
      const control = supervisor.claim(ref);
      const created = await repo.createRun(meta, supervisor.instanceId).catch((err: unknown) => {
        supervisor.release(ref);
        throw err;
      });
      if (created) return control;
      supervisor.release(ref);
      const holder = await repo.lockHolder(meta.streamId, meta.testSuiteName);
      const held = holder ? await repo.getRun(meta.streamId, holder) : null;
      if (held?.status === 'running') break;
      if (holder) await repo.clearLock(meta.streamId, meta.testSuiteName, holder);
    }
    throw AppError.conflict('A run of this test suite is already in progress', 'params.testSuiteName');
  }

  private spawn(
    meta: RunMeta,
    utterances: SuiteUtterance[],
    recognizer: TestRecognizer,
    control: RunControl,
  ): void {
    const { repo, supervisor, finish, logger } = this.deps;
    const ref = { streamId: meta.streamId, runId: meta._id };
    const owner = supervisor.instanceId;
    const run: RunState = {
      meta,
      status: 'running',
      owner,
      ran: 0,
      results: emptyCounters(),
      analysis: emptyAnalysis(),
      batches: 0,
      isPartialFailure: false,
    };
    logger.info(
      { runId: meta._id, streamId: meta.streamId, utterances: meta.utterance_count },
      'testruns: run started',
    );
    const done = runLoop(
      { run, utterances, recognizer, owner, control },
      {
        repo,
        finish,
        options: this.deps.loop,
        ...(this.deps.observe ? { onUtterance: this.deps.observe.utterance } : {}),
      },
    )
      .then((end) => {
        this.deps.observe?.run(end);
        logger.info({ runId: meta._id, streamId: meta.streamId, end }, 'testruns: run ended');
      })
      .catch(async (err: unknown) => {
        this.deps.observe?.run('error');
        logger.error({ err, runId: meta._id, streamId: meta.streamId }, 'testruns: run failed');
        const now = await repo.getRun(ref.streamId, ref.runId).catch(() => null);
        if (now?.status === 'running' && now.owner === owner && !control.halted) {
          await finish(now, owner, {
            status: 'failed',
            ran: now.ran,
            results: now.results,
            ...(now.analysis ? { analysis: now.analysis } : {}),
            reason: 'error while running',
          }).catch(() => false);
        }
      });
    supervisor.attach(ref, done);
  }

  async status(input: {
    streamId: string;
    suiteName: string;
    runId: string;
    language?: string;
    baseUrl: string;
  }): Promise<StatusAnswer> {
    const { repo, links } = this.deps;
    const suiteId = await repo.suiteId(input.streamId, input.suiteName);
    if (!suiteId) throw AppError.notFound(SUITE_NOT_FOUND);
    const run = await repo.getRun(input.streamId, input.runId);
    if (!run || run.meta.testSuiteId !== suiteId) throw AppError.notFound(RUN_NOT_FOUND);
    if (input.language && !sameLanguage(input.language, run.meta.botLanguage))
      throw AppError.notFound(RUN_NOT_FOUND);
    return runView(run, run.fileId ? links.url(input.baseUrl, run.fileId) : undefined);
  }

  async download(
    fileId: string,
    exp: string | undefined,
    sig: string | undefined,
  ): Promise<{ csv: string; filename: string }> {
    const check = this.deps.links.check(fileId, exp, sig);
    if (check === 'invalid') throw new AppError(403, 'invalid_link', 'The download link is invalid');
    if (check === 'expired')
      throw new AppError(
        410,
        'link_expired',
        'The download link has expired; read the run status for a fresh one',
      );
    const ref = await this.deps.repo.fileRef(fileId);
    const run = ref ? await this.deps.repo.getRun(ref.streamId, ref.runId) : null;
    const csv = ref && run?.fileId === fileId ? await this.deps.repo.readFile(ref) : null;
    if (!ref || !run || csv === null) throw AppError.notFound('Result file not found');
    const base = run.meta.testSuiteName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'testsuite';
    return { csv, filename: `${base}-${run.meta._id}.csv` };
  }
}
