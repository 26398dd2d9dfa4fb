import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Company } from './company';

/**
 * A batch of orders created by one array body (or grown later through `orderGroupId`). Its totals
 * are always summed from its orders, never stored, so a promo change on one order cannot leave
 * them stale.
 */
@Entity({ tableName: 'order_group' })
export class OrderGroup {
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt' | 'version';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** `GRP-<year>-<seq>` from the order_group_ref_seq sequence. */
  @Property({ type: 'text', unique: true })
  groupRef!: string;

  @ManyToOne(() => Company)
  company!: Company;

  @Property({ type: 'text' })
  currency!: string;

  /** Optimistic lock for group-wide operations (group promo, group payment). */
  @Property({ type: 'integer', version: true })
  version: number = 1;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
