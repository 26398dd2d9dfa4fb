import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Company } from '../../partners/entities/company';
import { UpdatableEntity } from '../../../kernel/db/base-entity';

/**
 * A batch of orders created by one array body (or grown later through `orderGroupId`). Its totals
 * are always summed from its orders, never stored, so a promo change on one order cannot leave
 * them stale.
 */
@Entity({ tableName: 'order_group' })
export class OrderGroup extends UpdatableEntity {
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt' | 'version';

  /** `GRP-<year>-<seq>` from the order_group_ref_seq sequence. */
  @Property({ type: 'text', unique: true }) groupRef!: string;

  @ManyToOne(() => Company) company!: Company;

  @Property({ type: 'text' }) currency!: string;

  /** Optimistic lock for group-wide operations (group promo, group payment). */
  @Property({ type: 'integer', version: true }) version: number = 1;
}
