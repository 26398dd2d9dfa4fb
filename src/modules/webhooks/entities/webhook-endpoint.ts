import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * Where a company wants its events, and the `whsec_` secret they are signed with. The secret is
 * kept readable (signing needs it); during a rotation the replaced one stays until
 * `previousSecretUntil`, and deliveries carry a signature under each.
 */
@Entity({ tableName: 'webhook_endpoint' })
export class WebhookEndpoint {
  [OptionalProps]?: 'previousSecret' | 'previousSecretUntil' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' }) companyId!: string;

  @Property({ type: 'text' }) url!: string;

  @Property({ type: 'text', hidden: true }) secret!: string;

  @Property({ type: 'text', nullable: true, hidden: true }) previousSecret?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) previousSecretUntil?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) createdAt: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
