import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/**
 * One event to one endpoint: what the partner's delivery log lists. Tried by the queue until the
 * endpoint answers 2xx or the tries run out; `leaseUntil` keeps two processes from sending it at
 * once, `enqueuedAt` marks its hand-over to the queue (null again when it is retried by hand).
 */
@Entity({ tableName: 'webhook_delivery' })
export class WebhookDelivery {
  [OptionalProps]?: 'id' | 'status' | 'attempts' | 'enqueuedAt' | 'jobId' | 'leaseUntil' | 'nextRetryAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @Property({ type: 'text' }) eventId!: string;

  @Property({ type: 'uuid' }) endpointId!: string;

  @Property({ type: 'uuid' }) companyId!: string;

  @Property({ type: 'text' }) eventType!: string;

  @Property({ type: 'text' }) status: WebhookDeliveryStatus = 'PENDING';

  @Property({ type: 'integer' }) attempts: number = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) enqueuedAt?: Date | null;

  /** The queue job that carries it; only that job may send it (null: handed over before jobs were recorded). */
  @Property({ type: 'uuid', nullable: true }) jobId?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) leaseUntil?: Date | null;

  /** When the queue will try again (approximately: the back-off has jitter); null when it will not. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) nextRetryAt?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) createdAt: Date = new Date();
}
