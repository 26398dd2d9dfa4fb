import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** PENDING: not yet fanned out to the endpoints; DISPATCHED: one delivery per subscribed endpoint exists; NO_ENDPOINT: none was subscribed. */
export type WebhookEventStatus = 'PENDING' | 'DISPATCHED' | 'NO_ENDPOINT';

/**
 * One event for one company: the outbox row, written in the transaction of the change it
 * announces. `payload` is the exact JSON body partners receive. The relay fans it out to the
 * company's endpoints subscribed to its type (`enqueuedAt` marks that), each delivery then tried
 * on its own.
 */
@Entity({ tableName: 'webhook_event' })
export class WebhookEvent {
  [OptionalProps]?: 'createdAt' | 'enqueuedAt' | 'status' | 'sandbox';

  /** `evt_` and a UUID: the Standard Webhooks `webhook-id`, the same on every endpoint, retry and replay. */
  @PrimaryKey({ type: 'text' }) id!: string;

  @Property({ type: 'uuid' }) companyId!: string;

  @Property({ type: 'text' }) type!: string;

  @Property({ type: 'json' }) payload!: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) createdAt: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) enqueuedAt?: Date | null;

  @Property({ type: 'text' }) status: WebhookEventStatus = 'PENDING';

  /** Sent by the partner itself through POST /sandbox/events (its payload says `sandbox: true`); GET /events filters on it. */
  @Property({ type: 'boolean' }) sandbox: boolean = false;
}
