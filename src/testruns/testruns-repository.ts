/**
 * Test suites, runs, their result rows and files, the active-run set and owner heartbeats in the
 * store. The only file of this component that touches the store.
 *
 * Layout (all of one app in the app's slot): suite hash {id, name, streamId, utterances, createdOn,
 * updatedOn}; run hash {meta, status, owner, ran, results, analysis, batches, endTime,
 * isPartialFailure, fileId, reason} (runs stored before `analysis` existed have none); rows hash {b<i>: CSV text of batch i} while running; the file (CSV) once
 * finished; a lock per suite holding the running run's id; the app's run index (by start time).
 * Outside the app's slot: the set of active runs ("<streamId>|<runId>"), fileId -> run, and one
 * heartbeat key (with TTL) per live instance.
 */
import { newId } from '../platform/index.js';
import { storeKeys, type Guard, type Store } from '../store/index.js';
import { emptyAnalysis, parseAnalysis, type RunAnalysis } from './run-analysis.js';
import { emptyCounters, parseCounters, type RunCounters } from './run-counters.js';
import type { RunStatus, RunType, SuiteRecord, SuiteUtterance } from './testruns-schemas.js';

export interface RunMeta {
  _id: string;
  streamId: string;
  testSuiteId: string;
  testSuiteName: string;
  triggeredBy: string;
  botLanguage: string;
  runType: RunType;
  utterance_count: number;
  startTime: string;
  threshold: number;
  /** The agent version tested (absent on runs stored before versions existed). */
  agentVersion?: string;
}

export interface RunState {
  meta: RunMeta;
  status: RunStatus;
  owner: string;
  ran: number;
  results: RunCounters;
  /** Rejection, confusion and calibration tallies; absent on runs stored before they existed. */
  analysis?: RunAnalysis;
  batches: number;
  isPartialFailure: boolean;
  endTime?: string;
  fileId?: string;
  reason?: string;
}

export interface RunRef {
  streamId: string;
  runId: string;
}

/** Suite names go into keys URI-encoded, so distinct names never share a key. */
const suiteKey = (streamId: string, name: string): string =>
  storeKeys.testSuite(streamId, encodeURIComponent(name));
const lockKey = (streamId: string, name: string): string =>
  storeKeys.testSuiteRunLock(streamId, encodeURIComponent(name));
const activeMember = (r: RunRef): string => `${r.streamId}|${r.runId}`;

export class TestrunsRepository {
  constructor(private readonly store: Store) {}

  // ---- suites
  /** Creates or replaces a suite; its id is set once (guarded) and kept across re-PUTs. */
  async putSuite(
    streamId: string,
    name: string,
    utterances: SuiteUtterance[],
    now: string,
  ): Promise<SuiteRecord> {
    const key = suiteKey(streamId, name);
    const fields = { name, streamId, utterances: JSON.stringify(utterances), updatedOn: now };
    const created = await this.store.atomic(
      [{ op: 'hset', key, fields: { ...fields, id: newId('ts'), createdOn: now } }],
      [{ key, hashField: 'id', absent: true }],
    );
    if (!created.ok) await this.store.atomic([{ op: 'hset', key, fields }]);
    const [id, createdOn] = await Promise.all([
      this.store.hget(key, 'id'),
      this.store.hget(key, 'createdOn'),
    ]);
    return {
      id: id ?? '',
      name,
      streamId,
      utteranceCount: utterances.length,
      utterances,
      createdOn: createdOn ?? now,
      updatedOn: now,
    };
  }

  async getSuite(streamId: string, name: string): Promise<SuiteRecord | null> {
    const h = await this.store.hgetall(suiteKey(streamId, name));
    if (!h.id || !h.utterances) return null;
    const utterances = JSON.parse(h.utterances) as SuiteUtterance[];
    return {
      id: h.id,
      name: h.name ?? name,
      streamId,
      utteranceCount: utterances.length,
      utterances,
      createdOn: h.createdOn ?? '',
      updatedOn: h.updatedOn ?? '',
    };
  }

  suiteId(streamId: string, name: string): Promise<string | null> {
    return this.store.hget(suiteKey(streamId, name), 'id');
  }

  // ---- runs
  /** Registers the run as active, then creates it with the suite's lock; false when the suite is locked. */
  async createRun(meta: RunMeta, owner: string): Promise<boolean> {
    const ref = { streamId: meta.streamId, runId: meta._id };
    await this.store.atomic([{ op: 'sadd', key: storeKeys.testRunsActive(), member: activeMember(ref) }]);
    const lock = lockKey(meta.streamId, meta.testSuiteName);
    const r = await this.store.atomic(
      [
        {
          op: 'hset',
          key: storeKeys.testRun(meta.streamId, meta._id),
          fields: {
            meta: JSON.stringify(meta),
            status: 'running',
            owner,
            ran: '0',
            results: JSON.stringify(emptyCounters()),
            analysis: JSON.stringify(emptyAnalysis()),
            batches: '0',
            isPartialFailure: 'false',
          },
        },
        {
          op: 'zadd',
          key: storeKeys.testRunIndex(meta.streamId),
          score: Date.parse(meta.startTime),
          member: meta._id,
        },
        { op: 'set', key: lock, value: meta._id },
      ],
      [{ key: lock, absent: true }],
    );
    if (!r.ok) await this.removeActive(ref);
    return r.ok;
  }

  lockHolder(streamId: string, suiteName: string): Promise<string | null> {
    return this.store.get(lockKey(streamId, suiteName));
  }

  /** Drops a suite lock left by a run that is no longer running. */
  async clearLock(streamId: string, suiteName: string, runId: string): Promise<void> {
    const key = lockKey(streamId, suiteName);
    await this.store.atomic([{ op: 'del', key }], [{ key, equals: runId }]);
  }

  async getRun(streamId: string, runId: string): Promise<RunState | null> {
    const h = await this.store.hgetall(storeKeys.testRun(streamId, runId));
    if (!h.meta || !h.status) return null;
    const analysis = parseAnalysis(h.analysis);
    return {
      meta: JSON.parse(h.meta) as RunMeta,
      status: h.status as RunStatus,
      owner: h.owner ?? '',
      ran: Number(h.ran ?? 0),
      results: parseCounters(h.results),
      ...(analysis ? { analysis } : {}),
      batches: Number(h.batches ?? 0),
      isPartialFailure: h.isPartialFailure === 'true',
      ...(h.endTime ? { endTime: h.endTime } : {}),
      ...(h.fileId ? { fileId: h.fileId } : {}),
      ...(h.reason ? { reason: h.reason } : {}),
    };
  }

  private ownedGuards(streamId: string, runId: string, owner: string): Guard[] {
    const key = storeKeys.testRun(streamId, runId);
    return [
      { key, hashField: 'status', equals: 'running' },
      { key, hashField: 'owner', equals: owner },
    ];
  }

  /** Persists progress and one batch of rows; false when the run is no longer this owner's running run. */
  async checkpoint(
    ref: RunRef,
    owner: string,
    p: { ran: number; results: RunCounters; analysis: RunAnalysis; batchIndex: number; csv: string },
  ): Promise<boolean> {
    const r = await this.store.atomic(
      [
        {
          op: 'hset',
          key: storeKeys.testRun(ref.streamId, ref.runId),
          fields: {
            ran: String(p.ran),
            results: JSON.stringify(p.results),
            analysis: JSON.stringify(p.analysis),
            batches: String(p.batchIndex + 1),
          },
        },
        {
          op: 'hset',
          key: storeKeys.testRunRows(ref.streamId, ref.runId),
          fields: { [`b${p.batchIndex}`]: p.csv },
        },
      ],
      this.ownedGuards(ref.streamId, ref.runId, owner),
    );
    return r.ok;
  }

  /** The CSV rows persisted so far, in order. */
  async readRows(ref: RunRef): Promise<string> {
    const h = await this.store.hgetall(storeKeys.testRunRows(ref.streamId, ref.runId));
    return Object.entries(h)
      .map(([k, v]) => [Number(k.slice(1)), v] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, v]) => v)
      .join('');
  }

  /** Ends a running run of `owner` with its file, in one step; false when it was not (any more). */
  async finish(
    run: RunState,
    owner: string,
    end: {
      status: 'completed' | 'failed';
      endTime: string;
      ran: number;
      results: RunCounters;
      analysis?: RunAnalysis;
      fileId: string;
      csv: string;
      reason?: string;
    },
  ): Promise<boolean> {
    const { streamId, _id: runId, testSuiteName } = run.meta;
    const r = await this.store.atomic(
      [
        {
          op: 'hset',
          key: storeKeys.testRun(streamId, runId),
          fields: {
            status: end.status,
            endTime: end.endTime,
            ran: String(end.ran),
            results: JSON.stringify(end.results),
            fileId: end.fileId,
            ...(end.analysis ? { analysis: JSON.stringify(end.analysis) } : {}),
            isPartialFailure: String(end.status === 'failed'),
            ...(end.reason ? { reason: end.reason } : {}),
          },
        },
        { op: 'set', key: storeKeys.testRunFile(streamId, runId), value: end.csv },
        { op: 'del', key: storeKeys.testRunRows(streamId, runId) },
        { op: 'del', key: lockKey(streamId, testSuiteName) },
      ],
      this.ownedGuards(streamId, runId, owner),
    );
    return r.ok;
  }

  // ---- files
  async setFileRef(fileId: string, ref: RunRef): Promise<void> {
    await this.store.atomic([
      { op: 'set', key: storeKeys.testRunFileRef(fileId), value: JSON.stringify(ref) },
    ]);
  }

  async dropFileRef(fileId: string): Promise<void> {
    await this.store.del([storeKeys.testRunFileRef(fileId)]);
  }

  async fileRef(fileId: string): Promise<RunRef | null> {
    const raw = await this.store.get(storeKeys.testRunFileRef(fileId));
    return raw ? (JSON.parse(raw) as RunRef) : null;
  }

  readFile(ref: RunRef): Promise<string | null> {
    return this.store.get(storeKeys.testRunFile(ref.streamId, ref.runId));
  }

  // ---- active runs and owners
  async listActive(): Promise<RunRef[]> {
    const members = await this.store.smembers(storeKeys.testRunsActive());
    return members.flatMap((m) => {
      const [streamId, runId] = m.split('|');
      return streamId && runId ? [{ streamId, runId }] : [];
    });
  }

  async removeActive(ref: RunRef): Promise<void> {
    await this.store.atomic([{ op: 'srem', key: storeKeys.testRunsActive(), member: activeMember(ref) }]);
  }

  async beat(instanceId: string, ttlMs: number): Promise<void> {
    await this.store.set(storeKeys.testRunOwner(instanceId), String(Date.now()), { ttlMs });
  }

  isAlive(instanceId: string): Promise<boolean> {
    return this.store.exists(storeKeys.testRunOwner(instanceId));
  }

  async dropBeat(instanceId: string): Promise<void> {
    await this.store.del([storeKeys.testRunOwner(instanceId)]);
  }
}
