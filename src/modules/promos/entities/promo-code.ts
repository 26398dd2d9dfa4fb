import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import { Company } from '../../partners/entities/company';
import { MoneyType } from '../../../kernel/db/money-type';
import { SalesAgent } from '../../partners/entities/sales-agent';
import { BaseEntity } from '../../../kernel/db/base-entity';

/**
 * A promo code. Owned by exactly one sales company (a company code) or one sales agent (an agent
 * code), which decides the order slot it fills; a percentage or a fixed amount, never both (the
 * migration's check constraints hold both rules). `code` is stored upper-case and unique, so
 * lookups are case-insensitive by normalising the input.
 *
 * `usedCount` counts the order slots holding the code (reserved on apply, released on removal,
 * kept once the order is paid); it never exceeds `usageLimit` (a check constraint is the last word).
 */
@Entity({ tableName: 'promo_code' })
export class PromoCode extends BaseEntity {
  [OptionalProps]?:
    | 'id'
    | 'ownerCompany'
    | 'ownerAgent'
    | 'discountPercent'
    | 'discountAmount'
    | 'validFrom'
    | 'validTo'
    | 'active'
    | 'usageLimit'
    | 'usedCount'
    | 'createdAt';

  @Property({ type: 'text', unique: true }) code!: string;

  @ManyToOne(() => Company, { nullable: true }) ownerCompany?: Company;

  @ManyToOne(() => SalesAgent, { nullable: true }) ownerAgent?: SalesAgent;

  /** 0.01 to 100, two decimals. */
  @Property({ type: 'decimal', precision: 5, scale: 2, nullable: true }) discountPercent?: string;

  @Property({ type: MoneyType, nullable: true }) discountAmount?: Minor;

  /** First Kathmandu business date the code is usable, inclusive; null for no start. */
  @Property({ type: 'date', nullable: true }) validFrom?: string;

  /** Last Kathmandu business date the code is usable, inclusive; null for no end. */
  @Property({ type: 'date', nullable: true }) validTo?: string;

  @Property({ type: 'boolean' }) active: boolean = true;

  @Property({ type: 'integer', nullable: true }) usageLimit?: number;

  @Property({ type: 'integer' }) usedCount: number = 0;
}
