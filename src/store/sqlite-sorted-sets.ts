/**
 * The embedded store's sorted-set reads (the port's zrange, zrangeByScore, zcount, zcard, zscore,
 * zrank), over the prepared statements of sqlite-queries.ts.
 */
import type { RangeOptions, ScoredMember } from './store-port.js';
import type { SqliteKeyspace } from './sqlite-keyspace.js';
import type { SqliteQueries } from './sqlite-queries.js';

const finite = (n: number): number => Math.min(Math.max(n, -Number.MAX_VALUE), Number.MAX_VALUE);

export class SqliteSortedSets {
  constructor(
    private readonly space: SqliteKeyspace,
    private readonly q: SqliteQueries,
  ) {}

  /** The members scored within [min, max], by score (rev: highest first), from `offset`, at most `count` (-1: all). */
  range(key: string, min: number, max: number, rev: boolean, offset: number, count: number): ScoredMember[] {
    if (!this.space.typed(key, 'zset')) return [];
    return (rev ? this.q.zdesc : this.q.zasc).all(
      this.space.k(key),
      finite(min),
      finite(max),
      count,
      offset,
    ) as ScoredMember[];
  }

  async zrangeByScore(
    key: string,
    min: number,
    max: number,
    opts: RangeOptions = {},
  ): Promise<ScoredMember[]> {
    return this.range(key, min, max, opts.rev ?? false, opts.offset ?? 0, opts.count ?? -1);
  }

  async zrange(
    key: string,
    start: number,
    stop: number,
    opts: { rev?: boolean } = {},
  ): Promise<ScoredMember[]> {
    const n = await this.zcard(key);
    const s = start < 0 ? Math.max(0, n + start) : start;
    const e = stop < 0 ? n + stop : Math.min(stop, n - 1);
    return s > e ? [] : this.range(key, -Infinity, Infinity, opts.rev ?? false, s, e - s + 1);
  }

  async zcount(key: string, min: number, max: number): Promise<number> {
    if (!this.space.typed(key, 'zset')) return 0;
    return this.q.zcount.get(this.space.k(key), finite(min), finite(max)) as number;
  }

  async zcard(key: string): Promise<number> {
    if (!this.space.typed(key, 'zset')) return 0;
    return this.q.zcard.get(this.space.k(key)) as number;
  }

  async zscore(key: string, member: string): Promise<number | null> {
    if (!this.space.typed(key, 'zset')) return null;
    return (this.q.zscore.get(this.space.k(key), member) as number | undefined) ?? null;
  }

  async zrank(key: string, member: string, opts: { rev?: boolean } = {}): Promise<number | null> {
    const score = await this.zscore(key, member);
    if (score === null) return null;
    const below = this.q.zbelow.get(this.space.k(key), score, score, member) as number;
    return opts.rev ? (await this.zcard(key)) - 1 - below : below;
  }
}
