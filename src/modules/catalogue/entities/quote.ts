import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import { Company } from '../../partners/entities/company';
import type { CoverageLine } from './ctg';
import { Ctg } from './ctg';
import { Route } from './route';
import { MoneyType } from '../../../kernel/db/money-type';
import { BaseEntity } from '../../../kernel/db/base-entity';

export enum QuoteStatus {
  Active = 'ACTIVE',
  Used = 'USED',
  Expired = 'EXPIRED',
}

export interface QuotedDevice {
  deviceId: string;
  name: string;
  description: string;
  quantity: number;
  priceForDuration: Minor;
}

/** A priced, persisted offer for one traveller; an order made from it keeps its price and window. */
@Entity({ tableName: 'quote' })
@Index({ properties: ['company', 'createdAt'] })
export class Quote extends BaseEntity {
  [OptionalProps]?: 'id' | 'status' | 'createdAt' | 'route';

  @ManyToOne(() => Company) company!: Company;

  @ManyToOne(() => Ctg) ctg!: Ctg;

  @ManyToOne(() => Route, { nullable: true }) route?: Route;

  @Property({ type: 'text' }) nationality!: string;

  @Property({ type: 'integer' }) age!: number;

  @Property({ type: 'integer' }) maxAltitude!: number;

  @Property({ type: 'date' }) startDate!: string;

  @Property({ type: 'date' }) endDate!: string;

  @Property({ type: 'integer' }) durationDays!: number;

  @Property({ type: 'text' }) currency!: string;

  @Property({ type: MoneyType }) ctgPriceForDuration!: Minor;

  @Property({ type: MoneyType }) totalAmount!: Minor;

  @Property({ type: 'json' }) includedDevices!: QuotedDevice[];

  @Property({ type: 'json' }) coverage!: CoverageLine[];

  @Enum({ items: () => QuoteStatus }) status: QuoteStatus = QuoteStatus.Active;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) expiresAt!: Date;
}
