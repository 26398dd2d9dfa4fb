import { Collection, OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, OneToMany, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import { Company } from '../../partners/entities/company';
import { Ctg } from '../../catalogue/entities/ctg';
import { MoneyType } from '../../../kernel/db/money-type';
import { OrderGroup } from './order-group';
import { OrderTravelCompany } from './order-travel-company';
import { PromoCode } from '../../promos/entities/promo-code';
import { Quote, type QuotedDevice } from '../../catalogue/entities/quote';
import { Route } from '../../catalogue/entities/route';
import { SalesAgent } from '../../partners/entities/sales-agent';
import { Traveller } from '../../travellers/entities/traveller';
import { UpdatableEntity } from '../../../kernel/db/base-entity';

export enum OrderStatus {
  Pending = 'PENDING',
  Paid = 'PAID',
  Completed = 'COMPLETED',
  Closed = 'CLOSED',
  Cancelled = 'CANCELLED',
}

/**
 * The statuses of an order that was paid and not cancelled (a completed or closed trip was paid
 * too): the one definition every module asks through isPaidOrderStatus. The SQL function
 * `order_payment_status` repeats the list; test/payments/payment-status-cases.test.ts holds the
 * two to one table of cases and to this list.
 */
export const PAID_ORDER_STATUSES: readonly OrderStatus[] = [
  OrderStatus.Paid,
  OrderStatus.Completed,
  OrderStatus.Closed,
];

const PAID_STATUS_SET: ReadonlySet<string> = new Set<string>(PAID_ORDER_STATUSES);

/** Whether an order in `status` was paid and not cancelled. */
export function isPaidOrderStatus(status: string): boolean {
  return PAID_STATUS_SET.has(status);
}

/** Whom the order's promo codes bind it to (spec/components/schemas/PromoBinding.yaml). */
export enum PromoBindingType {
  None = 'NONE',
  Company = 'COMPANY',
  Agent = 'AGENT',
}

export enum SettlementType {
  Online = 'ONLINE',
  Cash = 'CASH',
}

/** An included device kept on the order, priced for the order's cover window: the quote's, without its description. */
export type OrderDevice = Omit<QuotedDevice, 'description'>;

/** An added service or device as sold: unit price in minor units. */
export interface AddedItemRecord {
  name: string;
  price: Minor;
  quantity: number;
}

/** A display-only agency: no access, no commission. */
export interface CustomTravelAgencyRecord {
  name: string;
  contactEmail?: string;
  contactPhone?: string;
  country?: string;
}

/**
 * One insured trip of one traveller. The price parts are stored separately (package, kept
 * devices, added items, each discount) so a later promo change recomputes the total from them
 * with rules/order-pricing.ts; `totalAmount` is always the current payable amount.
 * The table is `insurance_order` because `order` is an SQL keyword.
 */
@Entity({ tableName: 'insurance_order' })
@Index({ properties: ['company', 'createdAt'] })
export class Order extends UpdatableEntity {
  [OptionalProps]?:
    | 'id'
    | 'status'
    | 'settlementType'
    | 'route'
    | 'customRouteName'
    | 'quote'
    | 'group'
    | 'commissionCompany'
    | 'referralCode'
    | 'addedServices'
    | 'addedDevices'
    | 'extraFields'
    | 'dispatchInfo'
    | 'customTravelAgencies'
    | 'companyPromoDiscount'
    | 'agentPromoDiscount'
    | 'directDiscountPercent'
    | 'directDiscountAmount'
    | 'companyPromoCode'
    | 'agentPromoCode'
    | 'bindingType'
    | 'bindingCompany'
    | 'bindingAgent'
    | 'paidAt'
    | 'policyNumber'
    | 'verificationCode'
    | 'paymentStatus'
    | 'amendedAt'
    | 'bookedDepartureDate'
    | 'previousDepartureDate'
    | 'previousCoverageStartDate'
    | 'previousCoverageEndDate'
    | 'version'
    | 'createdAt'
    | 'updatedAt';

  /** `ORD-<year>-<seq>` from the order_ref_seq sequence. */
  @Property({ type: 'text', unique: true }) orderRef!: string;

  /** `ORDN-<year>-<seq>` from the order_number_seq sequence. */
  @Property({ type: 'text', unique: true }) orderNumber!: string;

  /** The company that placed the order: it owns it. */
  @ManyToOne(() => Company) company!: Company;

  @Enum({ items: () => OrderStatus }) status: OrderStatus = OrderStatus.Pending;

  @Enum({ items: () => SettlementType }) settlementType: SettlementType = SettlementType.Online;

  @ManyToOne(() => Traveller) traveller!: Traveller;

  @ManyToOne(() => Ctg) ctg!: Ctg;

  @ManyToOne(() => Route, { nullable: true }) route?: Route;

  @Property({ type: 'text', nullable: true }) customRouteName?: string;

  @Property({ type: 'date' }) departureDate!: string;

  @Property({ type: 'date' }) coverageStartDate!: string;

  @Property({ type: 'date' }) coverageEndDate!: string;

  @Property({ type: 'integer' }) durationDays!: number;

  /** A quote backs at most one order (unique), the database's last word on "quote already used". */
  @ManyToOne(() => Quote, { nullable: true, unique: true }) quote?: Quote;

  @ManyToOne(() => OrderGroup, { nullable: true, index: true }) group?: OrderGroup;

  /** Sales company earning the commission (the caller, for a sales-company credential). */
  @ManyToOne(() => Company, { nullable: true }) commissionCompany?: Company;

  @OneToMany(() => OrderTravelCompany, (link) => link.order, { orderBy: { position: 'asc' } }) travelCompanies =
    new Collection<OrderTravelCompany>(this);

  @Property({ type: 'json' }) customTravelAgencies: CustomTravelAgencyRecord[] = [];

  @Property({ type: 'text', nullable: true }) referralCode?: string;

  @Property({ type: 'text' }) currency!: string;

  @Property({ type: MoneyType }) packagePrice!: Minor;

  @Property({ type: 'json' }) includedDevices!: OrderDevice[];

  @Property({ type: 'json' }) excludedIncludedDeviceIds!: string[];

  @Property({ type: 'json', nullable: true }) addedServices?: AddedItemRecord[];

  @Property({ type: 'json', nullable: true }) addedDevices?: AddedItemRecord[];

  @Property({ type: MoneyType }) companyPromoDiscount: Minor = 0;

  @Property({ type: MoneyType }) agentPromoDiscount: Minor = 0;

  /** The sales-company promo slot; `companyPromoDiscount` is what it takes off. */
  @ManyToOne(() => PromoCode, { nullable: true }) companyPromoCode?: PromoCode;

  /** The sales-agent promo slot; `agentPromoDiscount` is what it takes off. */
  @ManyToOne(() => PromoCode, { nullable: true }) agentPromoCode?: PromoCode;

  /**
   * Set by the first code applied to an unbound order, to that code's owner; rolled back to NONE
   * when that code leaves the order. Exactly one of bindingCompany/bindingAgent matches the type.
   */
  @Enum({ items: () => PromoBindingType }) bindingType: PromoBindingType = PromoBindingType.None;

  @ManyToOne(() => Company, { nullable: true }) bindingCompany?: Company;

  @ManyToOne(() => SalesAgent, { nullable: true }) bindingAgent?: SalesAgent;

  @Property({ type: 'decimal', precision: 5, scale: 2 }) directDiscountPercent: string = '0.00';

  @Property({ type: MoneyType }) directDiscountAmount: Minor = 0;

  /** The current payable amount; recomputed whenever a discount changes. */
  @Property({ type: MoneyType }) totalAmount!: Minor;

  @Property({ type: 'json', nullable: true }) extraFields?: Record<string, unknown>;

  @Property({ type: 'json', nullable: true }) dispatchInfo?: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) paidAt?: Date;

  /** `POL-<year>-<seq>` from the policy_number_seq sequence, issued in the transaction that pays the order. */
  @Property({ type: 'text', nullable: true, unique: true }) policyNumber?: string;

  /**
   * Issued with the policy number and printed beside the QR code, which carries it: the verify page
   * shows the traveller's initials only to someone holding the certificate, not to someone walking
   * the policy numbers.
   */
  @Property({ type: 'text', nullable: true }) verificationCode?: string;

  /** When the dates last moved (PATCH /orders/{orderRef}); the certificate then says "Amended". */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) amendedAt?: Date;

  /** The departure the order was booked with, kept at its first date change (null until then: the departure itself). */
  @Property({ type: 'date', nullable: true }) bookedDepartureDate?: string;

  /** The window the last date change moved from; each change and both windows are also in the audit log. */
  @Property({ type: 'date', nullable: true }) previousDepartureDate?: string;

  @Property({ type: 'date', nullable: true }) previousCoverageStartDate?: string;

  @Property({ type: 'date', nullable: true }) previousCoverageEndDate?: string;

  /**
   * What `payment-status` reports for the order (without its gateway lookup), for the order book's
   * filter. Written only by the database's triggers (migration OrderBook), in the transaction of
   * each change of an attempt, a share or the order's status; never set it here.
   */
  @Enum({
    items: ['NOT_INITIATED', 'INITIATED', 'SUCCESS', 'FAILED', 'CANCELLED', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'],
    type: 'text',
  })
  paymentStatus: string = 'NOT_INITIATED';

  /** Optimistic lock: promo and payment changes fail rather than overwrite a concurrent one. */
  @Property({ type: 'integer', version: true }) version: number = 1;
}
