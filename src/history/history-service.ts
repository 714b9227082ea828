/**
 * getMessages / getMessagesV2: resolves the parameters, reads one page through the indexes and
 * shapes the answer {total, moreAvailable, icon, messages}. The routes and the benchmark both call
 * `getMessages` (rate limiting and auth live in the routes).
 */
import type { HistoryAnswer, HistoryParams, HistoryVersion } from './history-schemas.js';
import { resolveHistoryQuery } from './history-params.js';
import type { HistoryReader } from './history-reader.js';
import type { HistoryRepository } from './history-repository.js';
import { messageView } from './message-view.js';

/** Where the app's logo comes from (the admin component's AppsService fits). */
export interface AppIconSource {
  findApp(streamId: string): Promise<{ icon?: string } | null>;
}

export class HistoryService {
  constructor(
    private readonly repo: HistoryRepository,
    private readonly reader: HistoryReader,
    private readonly apps: AppIconSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** `where` names the parameters' origin in error paths (query for GET, body for POST). */
  async getMessages(
    streamId: string,
    version: HistoryVersion,
    params: HistoryParams,
    where: 'query' | 'body' = 'query',
  ): Promise<HistoryAnswer> {
    const q = resolveHistoryQuery(version, params, where, this.now());
    const [page, app] = await Promise.all([this.reader.read(streamId, q), this.apps.findApp(streamId)]);
    const ids = page.rows.map((r) => r.id!);
    const traces = q.includeTraceId && ids.length ? await this.repo.traces(streamId, ids) : [];
    const answer: HistoryAnswer = {
      total: page.total,
      moreAvailable: page.moreAvailable,
      icon: app?.icon ?? '',
      messages: page.rows.map((r, i) =>
        messageView(r, {
          traceId: traces[i] ?? null,
          includeTraceId: q.includeTraceId,
          includeSecureForm: q.includeSecureForm,
          includeAsrMetaData: q.includeAsrMetaData,
        }),
      ),
    };
    if (q.getAgentsInfo) answer.agentsInfo = [];
    return answer;
  }
}
