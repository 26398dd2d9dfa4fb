import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import { MoneyType } from '../../../kernel/db/money-type';
import { BaseEntity } from '../../../kernel/db/base-entity';
import { Company } from '../../partners/entities/company';
import { SalesAgent } from '../../partners/entities/sales-agent';
import { Order } from '../../orders/entities/order';
import type { CommissionRole } from '../rules/commission-earners';

export type CommissionEntryKind = 'EARNED' | 'REVERSED';

/**
 * One line of the commission ledger: what one earner earned (EARNED) or gave back (REVERSED,
 * negative) on one order, when, and by which rule. Written once in the transaction of the payment
 * or refund that caused it, never changed (the table's trigger refuses it): a line keeps the
 * percent it used, and its period is the Nepal month it occurred in, so a closed statement stays
 * as it was.
 */
@Entity({ tableName: 'commission_entry' })
export class CommissionEntry extends BaseEntity {
  [OptionalProps]?: 'id' | 'agent' | 'policyNumber' | 'refundRef' | 'refunded' | 'createdAt';

  @Enum({ items: ['EARNED', 'REVERSED'], type: 'text' }) kind!: CommissionEntryKind;

  /** Whose statement the line is on (an agent's sales company for an agent's line). */
  @ManyToOne(() => Company) company!: Company;

  @ManyToOne(() => SalesAgent, { nullable: true }) agent?: SalesAgent | null;

  @Enum({ items: ['SELLER', 'LISTED_AGENCY', 'CODE_OWNER', 'AGENT'], type: 'text' }) role!: CommissionRole;

  @ManyToOne(() => Order) order!: Order;

  @Property({ type: 'text', nullable: true }) policyNumber?: string | null;

  /** The payment whose share earned (or gave back) it. */
  @Property({ type: 'text' }) paymentRef!: string;

  /** The refund that took it back (REVERSED only). */
  @Property({ type: 'text', nullable: true }) refundRef?: string | null;

  @Property({ type: 'text' }) currency!: string;

  /** The order's share of the payment. */
  @Property({ type: MoneyType }) share!: Minor;

  /** The premium part of the share: what the percent applies to. */
  @Property({ type: MoneyType }) base!: Minor;

  /** The earner's percent when the order was paid (a seller's already less the direct discount). */
  @Property({ type: 'decimal', precision: 5, scale: 2 }) percent!: string;

  @Property({ type: 'decimal', precision: 5, scale: 2 }) capPercent!: string;

  /** The earners together asked for more than the cap, so this share was scaled down pro rata. */
  @Property({ type: 'boolean' }) capped!: boolean;

  @Property({ type: MoneyType }) amount!: Minor;

  /** What the refund gave back of the share (REVERSED only): later refunds of the share are measured from it. */
  @Property({ type: MoneyType, nullable: true }) refunded?: Minor | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) occurredAt!: Date;

  /** `YYYY-MM`: the Nepal month of occurredAt. */
  @Property({ type: 'character', length: 7 }) period!: string;
}
