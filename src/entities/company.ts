import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export enum CompanyType {
  TravelAgency = 'TRAVEL_AGENCY',
  SalesCompany = 'SALES_COMPANY',
}

/** A partner account: every credential, traveller and order belongs to one. */
@Entity({ tableName: 'company' })
export class Company {
  [OptionalProps]?: 'id' | 'active' | 'commissionPercent' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Enum({ items: () => CompanyType })
  type!: CompanyType;

  /** Share of an order's total the company earns; also the ceiling of directDiscountPercent. */
  @Property({ type: 'decimal', precision: 5, scale: 2 })
  commissionPercent: string = '0.00';

  @Property({ type: 'boolean' })
  active: boolean = true;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
