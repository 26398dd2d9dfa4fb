import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type DeliveryOutcome = 'DELIVERED' | 'FAILED' | 'REFUSED';

/** One attempt to deliver one event: the delivery log an operator reads (`ops webhook deliveries`). */
@Entity({ tableName: 'webhook_delivery' })
export class WebhookDelivery {
  [OptionalProps]?: 'id' | 'at' | 'responseCode' | 'error' | 'nextRetryAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @Property({ type: 'text' }) eventId!: string;

  /** 1 for the first try; retries and replays count on. */
  @Property({ type: 'integer' }) attempt!: number;

  @Property({ type: 'text' }) url!: string;

  /** REFUSED: the endpoint failed the address check (not HTTPS, or a loopback/private address). */
  @Property({ type: 'text' }) outcome!: DeliveryOutcome;

  @Property({ type: 'integer', nullable: true }) responseCode?: number | null;

  @Property({ type: 'integer' }) latencyMs!: number;

  @Property({ type: 'text', nullable: true }) error?: string | null;

  /** When the queue will try again (approximately: the back-off has jitter); null when it will not. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) nextRetryAt?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) at: Date = new Date();
}
