/**
 * The history bench's data: users with IVR calls of alternating caller and agent messages (a few
 * tasks, intents on the caller's side, some secure forms), dated over the last 30 days and written
 * through the recorder's own key layout, with what each user's reads will ask for.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { historyLayout, type ValidMessage } from '../../src/history/index.js';
import type { Store, WriteOp } from '../../src/store/index.js';
import { line } from './bench-env.js';
import { seededRandom } from './nlu-dataset.js';

export interface Probe {
  userId: string;
  from: string;
  sessions: string[];
  /** Sessions that started in the last 7 days (else all). */
  recentSessions: string[];
  /** Messages of the last 7 days (id, createdOn), for msgId reads. */
  recent: Array<{ id: string; at: number }>;
}

/** The shape of the filled history: per user, its calls and each call's messages; all dated around `now`. */
export interface HistoryShape {
  sessionsPerUser: number;
  msgsPerSession: number;
  now: number;
}

const D = 24 * 3600 * 1000;
/** The intents callers' messages carry (what the filtered reads ask for). */
export const INTENTS = Array.from({ length: 20 }, (_, i) => `Intent${i}`);

/** The messages of one user: `sessionsPerUser` IVR calls of `msgsPerSession` turns' messages. */
function userMessages(
  shape: HistoryShape,
  streamId: string,
  u: number,
): { sessions: Array<{ id: string; msgs: ValidMessage[] }>; probe: Probe } {
  const { sessionsPerUser, msgsPerSession, now: NOW } = shape;
  const rand = seededRandom(u + 1);
  const userId = `u-${u}`;
  const from = `+1555${String(u).padStart(7, '0')}`;
  const sessions: Array<{ id: string; msgs: ValidMessage[] }> = [];
  const probe: Probe = { userId, from, sessions: [], recentSessions: [], recent: [] };
  for (let j = 0; j < sessionsPerUser; j++) {
    const callId = `call-${u}-${j}`;
    const sessionId = `sess-${u}-${j}`;
    const start = Math.floor(NOW - 30 * D + rand() * (30 * D - 3600_000));
    const msgs: ValidMessage[] = [];
    for (let i = 0; i < msgsPerSession; i++) {
      const incoming = i % 2 === 1;
      const taskKind = !incoming && i > 0 && rand() < 0.05 ? (rand() < 0.5 ? 'Alert' : 'Action') : 'Dialog';
      const m: ValidMessage = {
        id: `ms-${randomUUID()}`,
        streamId,
        userId,
        identities: [callId, from],
        sessionId,
        callId,
        type: incoming ? 'incoming' : 'outgoing',
        text: incoming ? `caller says ${i}` : `agent answers ${i}`,
        channel: 'ivr',
        channelUId: from,
        createdOn: start + i * 5_000,
        lang: 'en',
        taskKind,
        ...(incoming
          ? { traceId: `tr-${randomUUID()}`, tags: { intent: INTENTS[Math.floor(rand() * INTENTS.length)]! } }
          : {}),
        ...(incoming && rand() < 0.02 ? { secureForm: true } : {}),
      };
      msgs.push(m);
      if (m.createdOn > NOW - 7 * D) probe.recent.push({ id: m.id, at: m.createdOn });
    }
    sessions.push({ id: sessionId, msgs });
    probe.sessions.push(sessionId);
    if (start > NOW - 7 * D + 3600_000) probe.recentSessions.push(sessionId);
  }
  if (probe.recentSessions.length === 0) probe.recentSessions = probe.sessions;
  return { sessions, probe };
}

/**
 * Writes the messages of users `fromUser`..`toUser` through the recorder's key layout (bulk writes,
 * four in flight), keeps a probe per user for the reads, and prints a `fill` line.
 */
export async function fillHistory(
  store: Store,
  shape: HistoryShape,
  streamId: string,
  fromUser: number,
  toUser: number,
  probes: Probe[],
): Promise<void> {
  const started = performance.now();
  let messages = 0;
  let opsCount = 0;
  let batch: WriteOp[] = [];
  const inFlight = new Set<Promise<void>>();
  const flush = async () => {
    const ops = batch;
    batch = [];
    const p = store.bulk(ops).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 4) await Promise.race(inFlight);
  };
  for (let u = fromUser; u < toUser; u++) {
    const { sessions, probe } = userMessages(shape, streamId, u);
    probes.push(probe);
    for (const s of sessions) {
      for (const m of s.msgs) batch.push(...historyLayout.messageOps(m, shape.now));
      batch.push(...historyLayout.sessionOps(streamId, s.id, {}, s.msgs).ops);
      messages += s.msgs.length;
    }
    if (batch.length >= 20_000) {
      opsCount += batch.length;
      await flush();
    }
  }
  opsCount += batch.length;
  if (batch.length) await flush();
  await Promise.all(inFlight);
  const s = (performance.now() - started) / 1000;
  line({
    phase: 'fill',
    users: toUser - fromUser,
    messages,
    writeOps: opsCount,
    seconds: +s.toFixed(2),
    messagesPerSec: Math.round(messages / s),
    opsPerSec: Math.round(opsCount / s),
  });
}
