import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One rate-limit counter (for example `token:client:<clientId>`) for its current fixed window.
 * Kept in PostgreSQL so every server process counts against the same number; the row is
 * written only by the single upsert in rate-limits/rate-limiter.ts.
 */
@Entity({ tableName: 'rate_limit_bucket' })
@Index({ properties: ['windowStartedAt'] })
export class RateLimitBucket {
  @PrimaryKey({ type: 'text' }) key!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) windowStartedAt!: Date;

  /** Requests, or bytes for a byte quota (hence bigint; the upsert reads it as a string). */
  @Property({ type: 'bigint', columnType: 'bigint' }) hits!: string;
}
