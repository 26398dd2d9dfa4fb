import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Company } from './company';

/** A person selling for a sales company; owner of agent promo codes. */
@Entity({ tableName: 'sales_agent' })
export class SalesAgent {
  [OptionalProps]?: 'id' | 'active' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Company)
  company!: Company;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'boolean' })
  active: boolean = true;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
