import { randomUUID } from 'node:crypto';
import { PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * The key and creation time most tables share: `id uuid primary key`, `created_at timestamptz`.
 * The id is made in the process, so an entity has it before its first flush (references,
 * idempotency records and audit entries name it in the same transaction).
 */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @Property({ type: 'datetime', columnType: 'timestamptz' }) createdAt: Date = new Date();
}

/** A BaseEntity whose rows change after creation: `updated_at` follows every flushed change. */
export abstract class UpdatableEntity extends BaseEntity {
  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
