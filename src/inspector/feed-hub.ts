/**
 * The live feeds of this instance. One reader per watched app follows the app's feed in the store
 * (one blocking read at a time, on one connection, however many feeds watch it) and fans each
 * entry out, as text built once, to every feed of the app. A feed that resumes (Last-Event-ID)
 * first reads what it missed on the instance's one backlog reader, then joins the live entries,
 * which were held for it meanwhile: nothing is missed and nothing sent twice (a feed never sends
 * an id at or before the last it sent).
 *
 * Feeds are capped per owner (a console session, or a Bearer caller's address) and per instance:
 * past either, 429 with Retry-After. A feed opened with a console session re-checks it at every
 * heartbeat and every event, and every SESSION_SWEEP_MS besides (one look-up per session at a
 * time, however many feeds it holds), and ends when the session has (signed out on any instance,
 * expired, or made void by a changed admin token); `endSession` ends them at once. A feed whose client reads slower than
 * events come is ended (the client resumes from its last event id).
 */
import { AppError, type ConsoleSessionLookup, type Logger } from '../platform/index.js';
import type { StreamReader } from '../store/index.js';
import { compareEventIds, feedEvents, type FeedEvent } from './feed-events.js';
import type { InspectorRepository } from './inspector-repository.js';

/** A feed with nothing to send writes a comment this often (keeps proxies from closing it). */
export const HEARTBEAT_MS = 15_000;
/** Entries read per step (live and backlog). */
const BATCH = 100;
/** Events held for a feed whose client reads slowly, before the feed is ended. */
const MAX_PENDING = 2_000;
/** How long a session's check answers for all its feeds. */
const SESSION_CHECK_MS = 1_000;
/** How often the sessions holding feeds are checked between events (one look-up per session). */
const SESSION_SWEEP_MS = 2_000;
/** Waits between tries when the store cannot be read (the feeds keep their heartbeats). */
const RETRY_MS = [250, 1_000, 2_000];

export interface FeedLimits {
  perSession: number;
  perInstance: number;
}

export interface FeedRequest {
  streamId: string;
  lastEventId?: string;
  callId?: string;
  signal: AbortSignal;
  /** Whose cap the feed counts against: `session:<id>` or `address:<ip>`. */
  owner: string;
  /** The console session the feed was opened with (re-checked while it runs). */
  sessionId?: string;
  heartbeatMs?: number;
}

const SESSION_ENDED = 'event: end\ndata: {"reason":"session_ended"}\n\n';
const TOO_SLOW = 'event: end\ndata: {"reason":"too_slow"}\n\n';

class Subscriber {
  /** Text waiting to be written. */
  pending: string[] = [];
  /** Live events that came while the backlog was read. */
  held: FeedEvent[] | undefined;
  lastSent: string;
  ended: string | undefined;
  private wake: (() => void) | undefined;

  constructor(
    readonly req: FeedRequest,
    after: string,
    live: boolean,
  ) {
    this.lastSent = after;
    if (!live) this.held = [];
  }

  deliver(events: FeedEvent[]): void {
    if (this.held) this.held.push(...events);
    else this.send(events);
  }

  /** Events read from the backlog (while live ones are held). */
  deliverBacklog(events: FeedEvent[]): void {
    this.send(events);
  }

  private send(events: FeedEvent[]): void {
    for (const e of events) {
      if (compareEventIds(e.id, this.lastSent) <= 0) continue;
      this.lastSent = e.id;
      if (this.req.callId === undefined || e.callId === this.req.callId) this.pending.push(e.text);
    }
    if (this.pending.length > MAX_PENDING) this.end(TOO_SLOW);
    this.notify();
  }

  /** The backlog is read up to `cursor`: the held events after it go out, and live ones from now on. */
  goLive(): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.send(held);
  }

  end(last: string): void {
    this.ended ??= last;
    this.notify();
  }

  /** Resolves when there is text, the feed ended, or `ms` passed. */
  wait(ms: number): Promise<void> {
    if (this.pending.length || this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.notify(), ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  take(): string {
    const out = this.pending.join('');
    this.pending = [];
    return out;
  }

  private notify(): void {
    this.wake?.();
  }
}

/** The reader that follows one app's feed for all of its subscribers here. */
class AppFeed {
  readonly subs: Set<Subscriber>;
  private reader: StreamReader | undefined;

  constructor(
    private readonly hub: FeedHub,
    private readonly streamId: string,
    private position: string,
    subs: Iterable<Subscriber>,
  ) {
    this.subs = new Set(subs);
    void this.run();
  }

  remove(sub: Subscriber): void {
    this.subs.delete(sub);
    if (this.subs.size > 0 || !this.reader) return;
    // ends the read in progress (the loop sees the reader gone, and stops)
    const reader = this.reader;
    this.reader = undefined;
    void reader.close().catch(() => undefined);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.subs.size > 0) {
      let reader = this.reader;
      try {
        if (!reader) {
          reader = await this.hub.repo.feedReader();
          this.reader = reader;
          if (this.subs.size === 0) break;
        }
        const entries = await this.hub.repo.readFeed(
          reader,
          this.streamId,
          this.position,
          this.hub.heartbeatMs,
        );
        if (this.reader !== reader) continue; // closed while it waited
        failures = 0;
        if (entries.length === 0) continue;
        this.position = entries.at(-1)!.id;
        const events = await feedEvents(this.hub.repo, this.streamId, entries);
        for (const sub of this.subs) sub.deliver(events);
      } catch (err) {
        if (reader && this.reader !== reader) continue;
        if (this.subs.size === 0) break;
        this.hub.logger?.warn(
          { err, streamId: this.streamId },
          'live feed: could not read the feed; trying again',
        );
        this.reader = undefined;
        await reader?.close().catch(() => undefined);
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]));
      }
    }
    const reader = this.reader;
    this.reader = undefined;
    await reader?.close().catch(() => undefined);
    this.hub.retire(this.streamId, this);
  }
}

export class FeedHub {
  private readonly apps = new Map<string, AppFeed>();
  private readonly perOwner = new Map<string, number>();
  private readonly bySession = new Map<string, Set<Subscriber>>();
  private readonly sessionChecks = new Map<string, { at: number; holds: Promise<boolean> }>();
  private total = 0;
  private sweep: NodeJS.Timeout | undefined;
  private backlogReader: Promise<StreamReader> | undefined;
  private backlogQueue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly repo: InspectorRepository,
    private readonly limits: FeedLimits,
    private readonly sessions?: ConsoleSessionLookup,
    readonly logger?: Logger,
    readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  /** Feeds open on this instance. */
  get open(): number {
    return this.total;
  }

  /**
   * Admits a feed (429 past a cap) and answers its text: `retry`, then every traced turn after
   * `lastEventId` (none: from now on), a heartbeat comment when nothing came for a while. Ends when
   * the request's signal aborts or its session ends.
   */
  async feed(req: FeedRequest): Promise<AsyncGenerator<string>> {
    const owned = this.perOwner.get(req.owner) ?? 0;
    if (this.total >= this.limits.perInstance)
      throw tooMany(
        `This instance serves at most ${this.limits.perInstance} live feeds (FEEDS_MAX_PER_INSTANCE)`,
      );
    if (owned >= this.limits.perSession)
      throw tooMany(
        `At most ${this.limits.perSession} live feeds per operator session (FEEDS_MAX_PER_SESSION); close one first`,
      );
    this.total++;
    this.perOwner.set(req.owner, owned + 1);
    let sub: Subscriber;
    try {
      const after = req.lastEventId ?? (await this.repo.feedHead(req.streamId));
      const app = this.apps.get(req.streamId);
      sub = new Subscriber(req, after, app === undefined);
      if (app) app.subs.add(sub);
      else this.apps.set(req.streamId, new AppFeed(this, req.streamId, after, [sub]));
    } catch (err) {
      this.release(req.owner);
      throw err;
    }
    if (req.sessionId) {
      this.bySessionOf(req.sessionId).add(sub);
      this.sweep ??= setInterval(() => void this.sweepSessions(), SESSION_SWEEP_MS).unref();
    }
    return this.stream(sub);
  }

  /** Ends the feeds of a console session at once (its sign-out here). */
  endSession(sessionId: string): void {
    this.sessionChecks.delete(sessionId);
    for (const sub of this.bySession.get(sessionId) ?? []) sub.end(SESSION_ENDED);
  }

  /** Called by an app's reader when it stops (no subscriber left). */
  retire(streamId: string, feed: AppFeed): void {
    if (this.apps.get(streamId) !== feed) return;
    this.apps.delete(streamId);
    // a feed that joined while the reader was stopping gets a reader of its own
    const subs = [...feed.subs];
    if (subs.length > 0) {
      const from = subs.reduce(
        (a, s) => (compareEventIds(s.lastSent, a) < 0 ? s.lastSent : a),
        subs[0]!.lastSent,
      );
      this.apps.set(streamId, new AppFeed(this, streamId, from, subs));
    }
  }

  /** Ends the feeds of every session that no longer holds. */
  private async sweepSessions(): Promise<void> {
    if (this.bySession.size === 0) {
      clearInterval(this.sweep);
      this.sweep = undefined;
      return;
    }
    await Promise.all(
      [...this.bySession.keys()].map(async (id) => {
        if (!(await this.sessionHolds(id)))
          for (const sub of this.bySession.get(id) ?? []) sub.end(SESSION_ENDED);
      }),
    );
  }

  /** Ends every feed (the instance stops). */
  async close(): Promise<void> {
    clearInterval(this.sweep);
    this.sweep = undefined;
    for (const app of this.apps.values()) for (const sub of app.subs) sub.end('');
    const reader = this.backlogReader;
    this.backlogReader = undefined;
    await (await reader?.catch(() => undefined))?.close();
  }

  private async *stream(sub: Subscriber): AsyncGenerator<string> {
    const { req } = sub;
    const stop = () => sub.end('');
    req.signal.addEventListener('abort', stop);
    try {
      yield `retry: 2000\n: feed of ${req.streamId} after ${sub.lastSent}\n\n`;
      if (sub.held) yield* this.backlog(sub);
      const heartbeatMs = req.heartbeatMs ?? this.heartbeatMs;
      while (sub.ended === undefined) {
        await sub.wait(heartbeatMs);
        if (sub.ended !== undefined) break;
        if (!(await this.sessionHolds(req.sessionId))) sub.end(SESSION_ENDED);
        else yield sub.pending.length ? sub.take() : ': heartbeat\n\n';
      }
      if (sub.ended) yield sub.ended;
    } finally {
      req.signal.removeEventListener('abort', stop);
      this.apps.get(req.streamId)?.remove(sub);
      if (req.sessionId) this.bySession.get(req.sessionId)?.delete(sub);
      if (req.sessionId && this.bySession.get(req.sessionId)?.size === 0)
        this.bySession.delete(req.sessionId);
      this.release(req.owner);
    }
  }

  /** What a resuming feed missed, read in steps on the backlog reader; then it goes live. */
  private async *backlog(sub: Subscriber): AsyncGenerator<string> {
    let cursor = sub.lastSent;
    while (sub.held && sub.ended === undefined) {
      const entries = await this.readBacklog(sub.req.streamId, cursor);
      if (entries.length) {
        cursor = entries.at(-1)!.id;
        const events = await feedEvents(this.repo, sub.req.streamId, entries);
        sub.deliverBacklog(events);
        if (!(await this.sessionHolds(sub.req.sessionId))) {
          sub.end(SESSION_ENDED);
          return;
        }
        if (sub.pending.length) yield sub.take();
      }
      if (entries.length < BATCH) sub.goLive();
    }
  }

  private readBacklog(streamId: string, after: string) {
    const read = this.backlogQueue.then(async () => {
      this.backlogReader ??= this.repo.feedReader();
      const reader = await this.backlogReader;
      try {
        return await this.repo.readFeed(reader, streamId, after, 1, BATCH);
      } catch (err) {
        // a broken connection is made again by the next read
        this.backlogReader = undefined;
        await reader.close().catch(() => undefined);
        throw err;
      }
    });
    this.backlogQueue = read.catch(() => undefined);
    return read;
  }

  /** Whether the feed's console session still holds (always, for a Bearer feed); one look-up per session a second. */
  private async sessionHolds(sessionId: string | undefined): Promise<boolean> {
    if (!sessionId || !this.sessions) return true;
    const now = Date.now();
    let check = this.sessionChecks.get(sessionId);
    if (!check || now - check.at > SESSION_CHECK_MS) {
      const holds = this.sessions.isActive(sessionId).catch((err: unknown) => {
        // the store is out of reach: the feed cannot read either; its session is judged when it is back
        this.logger?.warn({ err }, 'live feed: could not check the console session');
        return true;
      });
      check = { at: now, holds };
      this.sessionChecks.set(sessionId, check);
      if (this.sessionChecks.size > 10_000) this.sessionChecks.clear();
    }
    return check.holds;
  }

  private bySessionOf(sessionId: string): Set<Subscriber> {
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    return set;
  }

  private release(owner: string): void {
    this.total--;
    const n = (this.perOwner.get(owner) ?? 1) - 1;
    if (n <= 0) this.perOwner.delete(owner);
    else this.perOwner.set(owner, n);
  }
}

function tooMany(msg: string): AppError {
  return new AppError(429, 'rate_limited', msg, [{ msg, code: 'rate_limited' }], { 'Retry-After': '5' });
}
