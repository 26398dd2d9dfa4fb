import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../kernel/db/base-entity';

export enum CompanyType {
  TravelAgency = 'TRAVEL_AGENCY',
  SalesCompany = 'SALES_COMPANY',
}

/** A partner account: every credential, traveller and order belongs to one. */
@Entity({ tableName: 'company' })
export class Company extends BaseEntity {
  [OptionalProps]?: 'id' | 'active' | 'commissionPercent' | 'panNumber' | 'createdAt';

  @Property({ type: 'text' }) name!: string;

  @Enum({ items: () => CompanyType }) type!: CompanyType;

  /** Share of an order's total the company earns; also the ceiling of directDiscountPercent. */
  @Property({ type: 'decimal', precision: 5, scale: 2 }) commissionPercent: string = '0.00';

  @Property({ type: 'boolean' }) active: boolean = true;

  /** The company's PAN/VAT number, printed on its commission statement; recorded by an operator. */
  @Property({ type: 'text', nullable: true }) panNumber?: string | null;
}
