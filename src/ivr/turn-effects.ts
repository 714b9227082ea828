/**
 * A turn's side effects, made once per turn however often the turn runs (resumed on another
 * instance after its owner died, or sent again after a store fault):
 * - a model answer is stored with the turn (in the session's pending turn, under the turn's lock)
 *   before the agent uses it; a run of the same turn that finds it reuses it instead of calling the
 *   model again (for the same request only: connection, system text and prompt);
 * - a table insert carries an idempotency key made of the app, the call, the turn and the node's
 *   step, so a run that finds its row already written answers that row instead of writing another.
 * A store fault an effect meets ends the turn as a store fault (the caller gets the retry
 * document), not with the node's error prompt: the turn runs again once the store is back.
 */
import type { AgentPorts, LlmPort } from '../agent/index.js';
import { AppError, sha256 } from '../platform/index.js';
import { isStoreUnavailable } from '../store/index.js';
import type { CallSession } from './call-session.js';
import type { CallSessionRepository } from './call-session-repository.js';
import type { TraceDraft } from '../tracing/index.js';

/** Longest model answer kept with a turn (the agent keeps much less of it). */
const MAX_KEPT_ANSWER = 8_000;

type ModelAnswer = Awaited<ReturnType<LlmPort['complete']>>;

interface KeptAnswer extends ModelAnswer {
  /** Hash of the request the answer is for. */
  request: string;
}

const isStoreFault = (err: unknown): boolean =>
  isStoreUnavailable(err) || (err instanceof AppError && err.code === 'store_unavailable');

/** The session of a running turn, with what its effects keep; every save is under the turn's lock. */
export class TurnJournal {
  private saving: Promise<unknown> = Promise.resolve();
  /** The first store fault an effect met: the turn ends with it. */
  fault: Error | undefined;

  constructor(
    private readonly sessions: CallSessionRepository,
    private session: CallSession,
    private readonly token: string,
  ) {}

  /** The session with its pending turn and the effects kept so far. */
  get current(): CallSession {
    return this.session;
  }

  /** Writes the current session while the lock is held, after any earlier save; false when the lock was lost. */
  save(): Promise<boolean> {
    const snapshot = this.session;
    const done = this.saving.then(() => this.sessions.saveLocked(snapshot, this.token));
    this.saving = done.catch(() => undefined);
    return done;
  }

  kept(key: string): unknown {
    return this.session.pending?.effects?.[key];
  }

  /** Stores an effect's outcome with the turn before it is used (a store fault when the lock is lost). */
  async keep(key: string, value: unknown): Promise<void> {
    const pending = this.session.pending!;
    this.session = {
      ...this.session,
      pending: { ...pending, effects: { ...pending.effects, [key]: value } },
    };
    if (!(await this.save())) throw AppError.storeUnavailable();
  }

  failed(err: Error): void {
    this.fault ??= err;
  }
}

/** The stable code of an effect's error, for a trace (never its message). */
const codeOf = (err: unknown): string =>
  err instanceof AppError
    ? String(err.code)
    : err instanceof Error && typeof (err as { code?: unknown }).code === 'string'
      ? String((err as { code?: unknown }).code)
      : 'error';

/**
 * The agent's ports for one run of one turn: effects made once per turn (see above). With a trace
 * draft, every model call and table write is noted in it (connection, latency, tokens, outcome),
 * its model time as model time and the effects' store writes as store time.
 */
export function effectPorts(
  ports: AgentPorts,
  journal: TurnJournal,
  at: { streamId: string; callId: string; turn: number },
  draft?: TraceDraft,
): AgentPorts {
  // once a store fault has ended the turn, no further effect is made in this run
  const watched = async <T>(work: () => Promise<T>): Promise<T> => {
    if (journal.fault) throw journal.fault;
    try {
      return await work();
    } catch (err) {
      if (err instanceof Error && isStoreFault(err)) journal.failed(err);
      throw err;
    }
  };
  const out: AgentPorts = { ...ports };
  const { llm, tables, skillGroups } = ports;
  if (llm) {
    out.llm = {
      async complete(req) {
        if (req.step === undefined) return watched(() => llm.complete(req));
        const key = `llm:${req.step}`;
        const request = sha256(JSON.stringify([req.connectionId, req.system ?? null, req.prompt]));
        const kept = journal.kept(key) as KeptAnswer | undefined;
        if (kept?.request === request) {
          const { request: _request, ...answer } = kept;
          draft?.modelCalls.push({
            connectionId: req.connectionId,
            step: req.step,
            latencyMs: 0,
            ...tokens(answer),
            outcome: 'reused',
          });
          return answer;
        }
        const t = performance.now();
        let answer: ModelAnswer;
        try {
          answer = await watched(() => llm.complete(req));
        } catch (err) {
          const latencyMs = performance.now() - t;
          if (draft) {
            draft.modelMs += latencyMs;
            draft.modelCalls.push({
              connectionId: req.connectionId,
              step: req.step,
              latencyMs: Math.round(latencyMs),
              outcome: 'error',
              error: codeOf(err),
            });
          }
          throw err;
        }
        if (draft) {
          const latencyMs = performance.now() - t;
          draft.modelMs += latencyMs;
          draft.modelCalls.push({
            connectionId: req.connectionId,
            step: req.step,
            latencyMs: Math.round(latencyMs),
            ...tokens(answer),
            outcome: 'ok',
          });
        }
        // what the agent reads of it: the trimmed text, far below this length
        const keep: KeptAnswer = {
          request,
          text: typeof answer.text === 'string' ? answer.text.trim().slice(0, MAX_KEPT_ANSWER) : '',
        };
        if (answer.inputTokens !== undefined) keep.inputTokens = answer.inputTokens;
        if (answer.outputTokens !== undefined) keep.outputTokens = answer.outputTokens;
        await watched(() => (draft ? draft.store(journal.keep(key, keep)) : journal.keep(key, keep)));
        return answer;
      },
    };
  }
  if (tables) {
    const insert: typeof tables.insert = (req) =>
      watched(() =>
        tables.insert(
          req.step === undefined
            ? req
            : { ...req, idempotencyKey: [at.streamId, at.callId, String(at.turn), req.step].join('\u0000') },
        ),
      );
    out.tables = {
      insert: !draft
        ? insert
        : async (req) => {
            const t = performance.now();
            try {
              const row = await draft.store(insert(req));
              draft.tableWrites.push({
                table: req.table,
                step: req.step,
                latencyMs: Math.round(performance.now() - t),
                outcome: 'ok',
              });
              return row;
            } catch (err) {
              draft.tableWrites.push({
                table: req.table,
                step: req.step,
                latencyMs: Math.round(performance.now() - t),
                outcome: 'error',
                error: codeOf(err),
              });
              throw err;
            }
          },
    };
  }
  if (skillGroups) out.skillGroups = { find: (req) => watched(() => skillGroups.find(req)) };
  return out;
}

/** A model answer's token counts, when the provider gave them. */
function tokens(answer: { inputTokens?: number; outputTokens?: number }): {
  inputTokens?: number;
  outputTokens?: number;
} {
  const out: { inputTokens?: number; outputTokens?: number } = {};
  if (answer.inputTokens !== undefined) out.inputTokens = answer.inputTokens;
  if (answer.outputTokens !== undefined) out.outputTokens = answer.outputTokens;
  return out;
}
