/**
 * The audit trail: every change made through the operator API, with its time, author (the admin
 * token, an account in the console, or an account's personal token), the item and a diff in which
 * secrets are redacted (platform/audit-sink.ts makes it). Kept for a retention set through the API
 * (90 days by default); listed newest first and filtered by app, author, item and time.
 */
import { newId, type AuditEvent, type AuditSink, type Logger } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { AuditRepository } from './audit-repository.js';
import type { AuditEntry, AuditQuery, AuditSettings } from './audit-schemas.js';

const DAY_MS = 86_400_000;
/** How many entries one listing reads at most to find a page of matches. */
const SCAN_MAX = 5000;
const BATCH = 250;

export class AuditService implements AuditSink {
  private readonly repo: AuditRepository;
  private retention: { days: number; readAt: number } | null = null;

  constructor(
    store: Store,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.repo = new AuditRepository(store);
  }

  private async retentionDays(): Promise<number> {
    const now = this.clock();
    // read again at most every few seconds: another instance may have changed it
    if (!this.retention || now - this.retention.readAt > 5000)
      this.retention = { days: (await this.repo.settings()).retentionDays, readAt: now };
    return this.retention.days;
  }

  async record(event: AuditEvent): Promise<void> {
    const at = this.clock();
    const entry: AuditEntry = { id: newId('audit'), at: new Date(at).toISOString(), ...event };
    try {
      await this.repo.add(entry, at, at - (await this.retentionDays()) * DAY_MS);
    } catch (err) {
      // the change itself is made: the answer says so; the missing entry is in the log, loud
      this.logger.error({ err, action: event.action, item: event.item }, 'audit entry not recorded');
    }
  }

  async list(q: AuditQuery): Promise<{ entries: AuditEntry[]; nextBefore?: string }> {
    const fromMs = q.from ? Date.parse(q.from) : 0;
    let toMs = q.to ? Date.parse(q.to) : Number.MAX_SAFE_INTEGER;
    let skipId: string | undefined;
    if (q.before) {
      const [ms, id] = q.before.split('~');
      toMs = Math.min(toMs, Number(ms));
      skipId = id;
    }
    const out: AuditEntry[] = [];
    let offset = 0;
    let more = true;
    let skipping = skipId !== undefined;
    while (out.length < q.limit && offset < SCAN_MAX && more) {
      const batch = await this.repo.range(fromMs, toMs, offset, BATCH);
      more = batch.length === BATCH;
      offset += batch.length;
      for (const e of batch) {
        if (skipping) {
          // entries at the same ms as the previous page's last come again: skip up to it
          if (Date.parse(e.at) === toMs) {
            if (e.id === skipId) skipping = false;
            continue;
          }
          skipping = false;
        }
        if (matches(e, q)) out.push(e);
        if (out.length >= q.limit) break;
      }
    }
    const last = out.at(-1);
    return {
      entries: out,
      ...(out.length >= q.limit && last ? { nextBefore: `${Date.parse(last.at)}~${last.id}` } : {}),
    };
  }

  settings(): Promise<AuditSettings> {
    return this.repo.settings();
  }

  async saveSettings(settings: AuditSettings): Promise<AuditSettings> {
    await this.repo.saveSettings(settings, this.clock() - settings.retentionDays * DAY_MS);
    this.retention = { days: settings.retentionDays, readAt: this.clock() };
    return settings;
  }
}

function matches(e: AuditEntry, q: AuditQuery): boolean {
  if (q.app && e.app !== q.app) return false;
  if (q.item && !e.item.includes(q.item)) return false;
  if (q.author) {
    const a = e.author;
    const who = q.author.toLowerCase();
    if (who === 'admin-token') return a.kind === 'admin-token';
    if (!('accountId' in a) || (a.accountId !== q.author && (a.email ?? '').toLowerCase() !== who))
      return false;
  }
  return true;
}
