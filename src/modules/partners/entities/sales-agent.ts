import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Company } from './company';
import { BaseEntity } from '../../../kernel/db/base-entity';

/** A person selling for a sales company; owner of agent promo codes. */
@Entity({ tableName: 'sales_agent' })
export class SalesAgent extends BaseEntity {
  [OptionalProps]?: 'id' | 'active' | 'createdAt';

  @ManyToOne(() => Company) company!: Company;

  @Property({ type: 'text' }) name!: string;

  @Property({ type: 'boolean' }) active: boolean = true;
}
