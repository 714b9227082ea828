/**
 * The storage layout of conversation history: which keys a message lives in and the write ops that
 * put it there. Pure (no store access): the recorder applies these ops in one `store.atomic`, the
 * benchmark in `store.bulk`. Every key carries the app's hash tag `{a:<streamId>}`.
 *
 *   msg:<id>                          hash: the message (fields below)
 *   trace:<id>                        string with TTL: the traceId, kept 30 days after createdOn
 *   h:<ch>:<cls>:all                  zset of message ids by createdOn ms: the app's messages
 *   h:<ch>:<cls>:u:<identity>         ... of one identity (userId, callId, from: each has one)
 *   h:<ch>:<cls>:s:<sessionId>        ... of one session
 *   h:<ch>:<cls>:t:<key>=<value>      ... carrying one tag
 *   hs:<ch>:<ver>:all                 zset of session ids by the session's first message (in ver)
 *   hs:<ch>:<ver>:u:<identity>        ... of one identity
 *   h-session:<sessionId>             hash: f:<ch>:<ver> = first message ms, sc:<ch>:<ver> = JSON
 *                                     list of the session sets it is in (kept to move it when an
 *                                     earlier message arrives late)
 *
 * <ch> is the channelType; <cls> the task class (d = Dialog, x = Alert and Action: v1 reads both,
 * v2 only d); <ver> is v1 or v2. So channelType, v1/v2, user, session and tag filters are all
 * answered by index reads. Ids in keys are URI-encoded, so distinct ids never share a key.
 */
import { storeKeys, type Guard, type WriteOp } from '../store/index.js';
import { wellFormed } from '../platform/index.js';
import type { ChannelType, HistoryVersion, TaskKind, ValidMessage } from './history-schemas.js';

export type TaskClass = 'd' | 'x';
export const TRACE_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** URI-encodes an id; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD first. */
const PLAIN_ID = /^[A-Za-z0-9\-_.!~*'()]*$/; // what encodeURIComponent leaves as it is
const enc = (id: string): string => (PLAIN_ID.test(id) ? id : encodeURIComponent(wellFormed(id)));
const uniq = <T>(xs: T[]): T[] => [...new Set(xs)];

export const classOf = (kind: TaskKind): TaskClass => (kind === 'Dialog' ? 'd' : 'x');
export const classesOf = (version: HistoryVersion): TaskClass[] => (version === 'v1' ? ['d', 'x'] : ['d']);
const versionsOf = (cls: TaskClass): HistoryVersion[] => (cls === 'd' ? ['v1', 'v2'] : ['v1']);

/** An index of messages (one per task class) or of sessions. */
export type Scope =
  | { kind: 'all' }
  | { kind: 'user'; id: string }
  | { kind: 'session'; id: string }
  | { kind: 'tag'; key: string; value: string };
/** Session sets exist for the app and for each identity; stored in session meta as 'all' / 'u:<id>'. */
export type SessionScope = 'all' | `u:${string}`;
/** A session meta, parsed: per view (`<ch>:<ver>`), the first message's ms and the session scopes. */
export type SessionViews = Map<string, { first: number; scopes: Set<string> }>;

export const tagToken = (key: string, value: string): string => `${enc(key)}=${enc(value)}`;

/** userId, the extra identities and the callId (trimmed, each once, in that order): every id the userId filter matches. */
function identitiesOf(m: ValidMessage): string[] {
  const ids: string[] = [];
  const add = (raw: string): void => {
    const id = raw.trim();
    if (id !== '' && !ids.includes(id)) ids.push(id);
  };
  add(m.userId);
  for (const id of m.identities) add(id);
  if (m.callId) add(m.callId);
  return ids;
}

/** What a message's identities make of it: its ids, the `ids` field, its session scopes (`u:<id>`) and its index keys but the tag ones. */
interface MessageScopes {
  cls: TaskClass;
  idsField: string;
  userScopes: SessionScope[];
  indexKeys: string[];
}

function scopesOf(m: ValidMessage): MessageScopes {
  const cls = classOf(m.taskKind);
  const identities = identitiesOf(m);
  const indexKeys = [historyLayout.indexKey(m.streamId, m.channel, cls, { kind: 'all' })];
  for (const id of identities)
    indexKeys.push(historyLayout.indexKey(m.streamId, m.channel, cls, { kind: 'user', id }));
  indexKeys.push(historyLayout.indexKey(m.streamId, m.channel, cls, { kind: 'session', id: m.sessionId }));
  return {
    cls,
    idsField: JSON.stringify(identities),
    userScopes: identities.map((id): SessionScope => `u:${id}`),
    indexKeys,
  };
}

export const historyLayout = {
  /** The app's record (same slot): every write is guarded on it, so nothing is written for a deleted app. */
  appKey: (streamId: string): string => storeKeys.appRecord(streamId),
  messageKey: (streamId: string, msgId: string): string => storeKeys.message(streamId, msgId),
  traceKey: (streamId: string, msgId: string): string => storeKeys.historyTrace(streamId, msgId),
  metaKey: (streamId: string, sessionId: string): string =>
    storeKeys.historySessionMeta(streamId, enc(sessionId)),

  indexKey(streamId: string, channel: ChannelType, cls: TaskClass, scope: Scope): string {
    const view = `${channel}:${cls}`;
    switch (scope.kind) {
      case 'all':
        return storeKeys.historyByApp(streamId, view);
      case 'user':
        return storeKeys.historyByUser(streamId, view, enc(scope.id));
      case 'session':
        return storeKeys.historyBySession(streamId, view, enc(scope.id));
      case 'tag':
        return storeKeys.historyByTag(streamId, view, tagToken(scope.key, scope.value));
    }
  },

  /** The index keys of one scope for a version: one per task class the version reads. */
  indexKeys(streamId: string, channel: ChannelType, version: HistoryVersion, scope: Scope): string[] {
    return classesOf(version).map((cls) => historyLayout.indexKey(streamId, channel, cls, scope));
  },

  sessionSetKey(
    streamId: string,
    channel: ChannelType,
    version: HistoryVersion,
    scope: SessionScope,
  ): string {
    const view = `${channel}:${version}`;
    return scope === 'all'
      ? storeKeys.historySessionsByApp(streamId, view)
      : storeKeys.historySessionsByUser(streamId, view, enc(scope.slice(2)));
  },

  identitiesOf,

  fields(m: ValidMessage, idsField = JSON.stringify(identitiesOf(m))): Record<string, string> {
    const f: Record<string, string> = {
      id: m.id,
      // the stored field keeps the name records have always had (existing data; message-view answers it)
      botId: m.streamId,
      type: m.type,
      status: m.status ?? (m.type === 'incoming' ? 'received' : 'delivered'),
      userId: m.userId,
      ids: idsField,
      sessionId: m.sessionId,
      text: m.text,
      channel: m.channel,
      channelUId: m.channelUId,
      createdOn: String(m.createdOn),
      lang: m.lang,
      taskKind: m.taskKind,
    };
    if (m.callId) f.callId = m.callId;
    if (m.tags && Object.keys(m.tags).length) f.tags = JSON.stringify(m.tags);
    if (m.secureForm) f.secureForm = '1';
    if (m.asrMetaData !== undefined) f.asr = JSON.stringify(m.asrMetaData);
    return f;
  },

  /** The message hash, its index entries and its traceId (with the rest of its 30 days as TTL). */
  messageOps(m: ValidMessage, nowMs: number): WriteOp[] {
    const scopes = scopesOf(m);
    const ops: WriteOp[] = [
      {
        op: 'hset',
        key: historyLayout.messageKey(m.streamId, m.id),
        fields: historyLayout.fields(m, scopes.idsField),
      },
    ];
    for (const key of scopes.indexKeys) ops.push({ op: 'zadd', key, score: m.createdOn, member: m.id });
    if (m.tags) {
      for (const key in m.tags) {
        ops.push({
          op: 'zadd',
          key: historyLayout.indexKey(m.streamId, m.channel, scopes.cls, {
            kind: 'tag',
            key,
            value: m.tags[key]!,
          }),
          score: m.createdOn,
          member: m.id,
        });
      }
    }
    const ttlMs = m.createdOn + TRACE_RETENTION_MS - nowMs;
    if (m.traceId && ttlMs > 0)
      ops.push({ op: 'set', key: historyLayout.traceKey(m.streamId, m.id), value: m.traceId, ttlMs });
    return ops;
  },

  /** A session meta hash as the recorder keeps it: per view, the first message's ms and the scopes. */
  parseMeta(meta: Record<string, string>): SessionViews {
    const views: SessionViews = new Map();
    for (const [field, raw] of Object.entries(meta)) {
      if (!field.startsWith('f:')) continue;
      const view = field.slice(2);
      const scopes = meta[`sc:${view}`];
      views.set(view, {
        first: Number(raw),
        scopes: new Set(scopes ? (JSON.parse(scopes) as string[]) : []),
      });
    }
    return views;
  },

  /**
   * Whether the session's bookkeeping already covers these messages (none is earlier than the
   * session's first message and every identity is in its sets): then `sessionOps` has nothing to
   * write, and the recorder skips it. The common case: every turn of a call after its first.
   */
  sessionCovers(views: SessionViews, msgs: ValidMessage[]): boolean {
    for (const m of msgs) {
      const scopes = scopesOf(m).userScopes;
      for (const version of versionsOf(classOf(m.taskKind))) {
        const v = views.get(`${m.channel}:${version}`);
        if (!v || v.first > m.createdOn || !v.scopes.has('all')) return false;
        for (const scope of scopes) if (!v.scopes.has(scope)) return false;
      }
    }
    return true;
  },

  /**
   * Session bookkeeping for new messages of ONE session, given its stored meta hash: the session's
   * first-message time per channel and version, and its entries in the app's and each identity's
   * session sets. Guards make the change conditional on the meta read (retry on conflict).
   */
  sessionOps(
    streamId: string,
    sessionId: string,
    meta: Record<string, string>,
    msgs: ValidMessage[],
  ): { ops: WriteOp[]; guards: Guard[] } {
    const ops: WriteOp[] = [];
    const guards: Guard[] = [];
    const metaKey = historyLayout.metaKey(streamId, sessionId);
    const byView = new Map<
      string,
      { channel: ChannelType; version: HistoryVersion; first: number; scopes: SessionScope[] }
    >();
    for (const m of msgs) {
      for (const version of versionsOf(classOf(m.taskKind))) {
        const view = `${m.channel}:${version}`;
        const cur = byView.get(view) ?? { channel: m.channel, version, first: m.createdOn, scopes: ['all'] };
        cur.first = Math.min(cur.first, m.createdOn);
        cur.scopes = uniq([
          ...cur.scopes,
          ...historyLayout.identitiesOf(m).map((id): SessionScope => `u:${id}`),
        ]);
        byView.set(view, cur);
      }
    }
    const fields: Record<string, string> = {};
    for (const [view, v] of byView) {
      const oldFirstRaw = meta[`f:${view}`];
      const oldScopesRaw = meta[`sc:${view}`];
      const oldFirst = oldFirstRaw === undefined ? Infinity : Number(oldFirstRaw);
      const oldScopes: SessionScope[] = oldScopesRaw ? (JSON.parse(oldScopesRaw) as SessionScope[]) : [];
      const first = Math.min(oldFirst, v.first);
      const scopes = uniq([...oldScopes, ...v.scopes]);
      const moved = first !== oldFirst;
      const added = scopes.filter((s) => !oldScopes.includes(s));
      if (!moved && added.length === 0) continue;
      for (const s of moved ? scopes : added)
        ops.push({
          op: 'zadd',
          key: historyLayout.sessionSetKey(streamId, v.channel, v.version, s),
          score: first,
          member: sessionId,
        });
      fields[`f:${view}`] = String(first);
      fields[`sc:${view}`] = JSON.stringify(scopes);
      guards.push(
        oldFirstRaw === undefined
          ? { key: metaKey, hashField: `f:${view}`, absent: true }
          : { key: metaKey, hashField: `f:${view}`, equals: oldFirstRaw },
      );
      guards.push(
        oldScopesRaw === undefined
          ? { key: metaKey, hashField: `sc:${view}`, absent: true }
          : { key: metaKey, hashField: `sc:${view}`, equals: oldScopesRaw },
      );
    }
    if (Object.keys(fields).length) ops.push({ op: 'hset', key: metaKey, fields });
    return { ops, guards };
  },
};
