import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type WebhookEventStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'NO_ENDPOINT';

/**
 * One event for one company: the outbox row, written in the transaction of the change it
 * announces, and then the summary of its delivery. `payload` is the exact JSON body partners
 * receive; `enqueuedAt` marks the hand-over to the job queue.
 */
@Entity({ tableName: 'webhook_event' })
export class WebhookEvent {
  [OptionalProps]?: 'createdAt' | 'enqueuedAt' | 'status' | 'attempts' | 'deliveredAt' | 'leaseUntil';

  /** `evt_` and a UUID: the Standard Webhooks `webhook-id`, the same on every retry and replay. */
  @PrimaryKey({ type: 'text' }) id!: string;

  @Property({ type: 'uuid' }) companyId!: string;

  @Property({ type: 'text' }) type!: string;

  @Property({ type: 'json' }) payload!: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) createdAt: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) enqueuedAt?: Date | null;

  @Property({ type: 'text' }) status: WebhookEventStatus = 'PENDING';

  @Property({ type: 'integer' }) attempts: number = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) deliveredAt?: Date | null;

  /** Until when one process holds the right to send it: no two processes send one event at once. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) leaseUntil?: Date | null;
}
