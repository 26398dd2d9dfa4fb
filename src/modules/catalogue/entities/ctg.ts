import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import { MoneyType } from '../../../kernel/db/money-type';
import { Route } from './route';
import type { Schemas } from '../../../kernel/http/wire';

export interface CoverageLine {
  code: string;
  name: string;
  coverageAmount: Minor;
}

export interface IncludedDevice {
  deviceId: string;
  name: string;
  description: string;
  quantity: number;
  dailyPrice: Minor;
}

/** An insurance package ("ctg"): altitude and age bands, price rule, coverage and bundled devices. */
@Entity({ tableName: 'ctg' })
export class Ctg {
  [OptionalProps]?: 'active' | 'route' | 'description' | 'termsConditions' | 'excessAmount';

  @PrimaryKey({ type: 'uuid' }) id!: string;

  @Property({ type: 'text', unique: true }) code!: string;

  @Property({ type: 'text' }) name!: string;

  @Property({ type: 'text' }) insuranceProductId!: string;

  @Property({ type: 'text' }) insuranceCompany!: string;

  @Property({ type: 'text' }) productType!: Schemas['Ctg']['productType'];

  /** Set only for special-route products, which are offered on that route alone. */
  @ManyToOne(() => Route, { nullable: true }) route?: Route;

  @Property({ type: 'integer' }) minAltitude!: number;

  @Property({ type: 'integer' }) maxAltitude!: number;

  @Property({ type: 'integer' }) minAge!: number;

  @Property({ type: 'integer' }) maxAge!: number;

  /** The price rule: `baseCtgPrice` covers `baseDurationDays`, and each day beyond adds `extraDayPrice`. */
  @Property({ type: MoneyType }) baseCtgPrice!: Minor;

  @Property({ type: 'integer' }) baseDurationDays!: number;

  @Property({ type: MoneyType }) extraDayPrice!: Minor;

  /** What the insured pays of each claim before the cover pays; printed on the certificate's key terms. 0: no excess. */
  @Property({ type: MoneyType }) excessAmount: Minor = 0;

  @Property({ type: 'integer' }) displayOrder!: number;

  @Property({ type: 'boolean' }) active: boolean = true;

  @Property({ type: 'text' }) description: string = '';

  @Property({ type: 'text' }) termsConditions: string = '';

  @Property({ type: 'json' }) coverage!: CoverageLine[];

  @Property({ type: 'json' }) includedDevices!: IncludedDevice[];
}
