import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type TryOutcome = 'DELIVERED' | 'FAILED' | 'REFUSED';

/** One try at one delivery: a line of the delivery log. */
@Entity({ tableName: 'webhook_delivery_try' })
export class WebhookDeliveryTry {
  [OptionalProps]?: 'id' | 'at' | 'responseCode' | 'error' | 'nextRetryAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @Property({ type: 'uuid' }) deliveryId!: string;

  @Property({ type: 'text' }) eventId!: string;

  /** 1 for the first try; retries count on. */
  @Property({ type: 'integer' }) attempt!: number;

  @Property({ type: 'text' }) url!: string;

  /** REFUSED: the endpoint failed the address rules (not HTTPS, or a non-public address) or was disabled. */
  @Property({ type: 'text' }) outcome!: TryOutcome;

  @Property({ type: 'integer', nullable: true }) responseCode?: number | null;

  @Property({ type: 'integer' }) latencyMs!: number;

  @Property({ type: 'text', nullable: true }) error?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) nextRetryAt?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) at: Date = new Date();
}
