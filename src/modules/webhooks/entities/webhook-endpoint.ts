import { randomUUID } from 'node:crypto';
import { ArrayType, OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** What an endpoint subscribes to: event types, or `*` for every type (those added later too). */
export const ALL_EVENTS = '*';

/**
 * Where a company wants (some of) its events, and the `whsec_` secret they are signed with. A
 * company has up to 5. The secret is kept readable (signing needs it); during a rotation the
 * replaced one stays until `previousSecretUntil`, and deliveries carry a signature under each.
 */
@Entity({ tableName: 'webhook_endpoint' })
export class WebhookEndpoint {
  [OptionalProps]?:
    'id' | 'events' | 'description' | 'enabled' | 'previousSecret' | 'previousSecretUntil' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @Property({ type: 'uuid' }) companyId!: string;

  @Property({ type: 'text' }) url!: string;

  /** Event type names, or [`*`]. */
  @Property({ type: ArrayType, columnType: 'text[]' }) events: string[] = [ALL_EVENTS];

  @Property({ type: 'text', nullable: true }) description?: string | null;

  @Property({ type: 'boolean' }) enabled: boolean = true;

  @Property({ type: 'text', hidden: true }) secret!: string;

  @Property({ type: 'text', nullable: true, hidden: true }) previousSecret?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) previousSecretUntil?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) createdAt: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
