import type { EntityManager } from '@mikro-orm/postgresql';

export interface Bucket {
  key: string;
  /** Hits allowed per window; 0 means unlimited (the bucket is not counted at all). */
  limit: number;
  /**
   * What this request adds (default 1): the bytes of an upload for a byte quota; 0 only asks
   * whether the bucket is already over its limit.
   */
  cost?: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; key: string };

interface HitRow {
  key: string;
  hits: string | number;
  retry_after: string | number;
}

/**
 * Fixed-window counters in PostgreSQL (table rate_limit_bucket). One statement counts a hit on
 * every bucket of a request atomically, so N server processes enforce one shared limit, and the
 * window boundaries come from the database clock, so processes with drifting clocks agree.
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(
    readonly windowSeconds: number,
    private readonly sweepEveryMs = 10 * 60_000,
  ) {}

  async hit(em: EntityManager, buckets: Bucket[]): Promise<RateDecision> {
    const counted = [
      ...new Map(buckets.filter((bucket) => bucket.limit > 0).map((bucket) => [bucket.key, bucket])).values(),
    ];
    if (counted.length === 0) return { allowed: true };
    const connection = em.getConnection();
    const values = counted.map(() => '(?, window_start.at, ?::bigint)').join(', ');
    const rows = await connection.execute<HitRow[]>(
      `with window_start as (
         select to_timestamp(floor(extract(epoch from clock_timestamp()) / ?) * ?) as at
       )
       insert into rate_limit_bucket (key, window_started_at, hits)
       select v.* from window_start, lateral (values ${values}) as v(key, window_started_at, hits)
       on conflict (key) do update set
         hits = case when rate_limit_bucket.window_started_at = excluded.window_started_at then rate_limit_bucket.hits + excluded.hits else excluded.hits end,
         window_started_at = excluded.window_started_at
       returning key, hits,
         ceil(extract(epoch from (window_started_at + make_interval(secs => ?) - clock_timestamp()))) as retry_after`,
      [
        this.windowSeconds,
        this.windowSeconds,
        ...counted.flatMap((bucket) => [bucket.key, bucket.cost ?? 1]),
        this.windowSeconds,
      ],
    );
    await this.sweepOldWindows(em);
    for (const row of rows) {
      const bucket = counted.find((candidate) => candidate.key === row.key);
      if (bucket && Number(row.hits) > bucket.limit) {
        return { allowed: false, key: row.key, retryAfterSeconds: Math.max(1, Number(row.retry_after)) };
      }
    }
    return { allowed: true };
  }

  /**
   * Takes back one hit of the current window from each bucket: an attempt counted in advance (so
   * that concurrent attempts cannot all slip under the limit) that turned out not to count.
   */
  async release(em: EntityManager, buckets: Bucket[]): Promise<void> {
    const keys = buckets.filter((bucket) => bucket.limit > 0).map((bucket) => bucket.key);
    if (keys.length === 0) return;
    await em.getConnection().execute(
      `update rate_limit_bucket set hits = hits - 1
        where key in (${keys.map(() => '?').join(', ')}) and hits > 0
          and window_started_at = to_timestamp(floor(extract(epoch from clock_timestamp()) / ?) * ?)`,
      [...keys, this.windowSeconds, this.windowSeconds],
    );
  }

  /** Buckets of clients that went quiet are deleted now and then, so the table stays small. */
  private async sweepOldWindows(em: EntityManager): Promise<void> {
    if (Date.now() - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = Date.now();
    await em
      .getConnection()
      .execute(`delete from rate_limit_bucket where window_started_at < clock_timestamp() - make_interval(secs => ?)`, [
        this.windowSeconds * 2,
      ]);
  }
}
