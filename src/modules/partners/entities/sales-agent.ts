import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Company } from './company';
import { BaseEntity } from '../../../kernel/db/base-entity';

/** A person selling for a sales company; owner of agent promo codes. */
@Entity({ tableName: 'sales_agent' })
export class SalesAgent extends BaseEntity {
  [OptionalProps]?: 'id' | 'active' | 'commissionPercent' | 'createdAt';

  @ManyToOne(() => Company) company!: Company;

  @Property({ type: 'text' }) name!: string;

  /** What the agent earns on an order carrying its agent code (reported on its company's statement); 0 until an operator sets it. */
  @Property({ type: 'decimal', precision: 5, scale: 2 }) commissionPercent: string = '0.00';
  @Property({ type: 'boolean' }) active: boolean = true;
}
