import { Collection, OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, OneToMany, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { AttemptStatus, ClosedReason, ProviderReversalKind } from '../rules/payment-attempt';
import type { Minor } from '../../../kernel/money';
import { Company } from '../../partners/entities/company';
import { MoneyType } from '../../../kernel/db/money-type';
import { OrderGroup } from '../../orders/entities/order-group';
import { PaymentAttemptOrder } from './payment-attempt-order';
import { UpdatableEntity } from '../../../kernel/db/base-entity';

/** The online gateways a partner can pay through. */
export type GatewayName = 'card_gateway' | 'wallet_gateway';
/** How an attempt was paid: an online gateway, or `cash` that an operator recorded for a CASH order. */
export type PaymentMethod = GatewayName | 'cash';
export type AttemptScope = 'ORDER' | 'GROUP';

/**
 * One trip of a customer to a gateway, for one order (scope ORDER) or every pending order of a
 * group (scope GROUP). It also is the idempotency record of the pay request that created it:
 * (company, idempotencyKey) is unique, and `requestFingerprint` binds the key to one target and
 * body. The orders it pays and the amount of each are in `orders`.
 */
@Entity({ tableName: 'payment_attempt' })
@Unique({ name: 'payment_attempt_company_id_idempotency_key_unique', properties: ['company', 'idempotencyKey'] })
@Index({ name: 'payment_attempt_open_index', properties: ['status', 'createdAt'] })
export class PaymentAttempt extends UpdatableEntity {
  [OptionalProps]?:
    | 'id'
    | 'status'
    | 'group'
    | 'returnUrl'
    | 'completedAt'
    | 'closedReason'
    | 'supersededBy'
    | 'gatewayTransactionId'
    | 'gatewayConfirmedAt'
    | 'failureReason'
    | 'refundAmount'
    | 'refundReason'
    | 'refundedAt'
    | 'refundNote'
    | 'lastCheckedAt'
    | 'provider'
    | 'customerMobile'
    | 'providerRef'
    | 'checkoutUrl'
    | 'createdAt'
    | 'updatedAt'
    | 'nextCheckAt'
    | 'checkCount'
    | 'providerReversal'
    | 'providerReversalAt';

  /** `<orderRef>-<epochMillis>` or `<groupRef>-<epochMillis>`; an opaque key everywhere else. */
  @Property({ type: 'text', unique: true }) paymentRef!: string;

  @ManyToOne(() => Company) company!: Company;

  @Enum({ items: ['ORDER', 'GROUP'], type: 'text' }) scope!: AttemptScope;

  @ManyToOne(() => OrderGroup, { nullable: true }) group?: OrderGroup;

  /**
   * `cash` attempts are written by `ops order record-cash` only: born SUCCESS with the operator's
   * word as the final one (gatewayConfirmedAt), so no gateway is ever asked about them.
   */
  @Enum({ items: ['card_gateway', 'wallet_gateway', 'cash'], type: 'text' }) gateway!: PaymentMethod;

  /**
   * The provider that took the payment (sandbox, khalti, esewa); null for cash. Lookups, voids and
   * refunds go to it, whatever CARD_GATEWAY_PROVIDER / WALLET_GATEWAY_PROVIDER say today.
   */
  @Property({ type: 'text', nullable: true }) provider?: string | null;

  /**
   * REFUND_PENDING: the gateway captured money that paid none of the orders (a late capture after
   * we closed the attempt); REFUNDED once an operator recorded the refund (`ops payment refund`).
   */
  @Enum({
    items: ['INITIATED', 'SUCCESS', 'FAILED', 'CANCELLED', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'],
    type: 'text',
  })
  status: AttemptStatus = 'INITIATED';

  /** What the customer is charged: the sum of `orders[].amount`. */
  @Property({ type: MoneyType }) amount!: Minor;

  @Property({ type: 'text' }) currency!: string;

  @Property({ type: 'text', nullable: true }) returnUrl?: string;

  /** The pay request's `customerMobile`: Khalti's customer phone, and the account a bank-funded Khalti payment is refunded to. */
  @Property({ type: 'text', nullable: true }) customerMobile?: string | null;

  /** The provider's own reference for the checkout (Khalti's pidx), once its start answered. */
  @Property({ type: 'text', nullable: true }) providerRef?: string;

  /** Where the customer's browser is sent; set once the provider's start answered, then never changed. */
  @Property({ type: 'text', nullable: true }) checkoutUrl?: string;

  @Property({ type: 'uuid' }) idempotencyKey!: string;

  @Property({ type: 'text' }) requestFingerprint!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) completedAt?: Date;

  /** Set when we closed the attempt ourselves, before the gateway's word. */
  @Enum({
    items: ['SUPERSEDED', 'EXPIRED', 'ORDER_PAID', 'ORDER_REPRICED', 'ORDER_CANCELLED'],
    type: 'text',
    nullable: true,
  })
  closedReason?: ClosedReason;

  @Property({ type: 'text', nullable: true }) supersededBy?: string;

  @Property({ type: 'text', nullable: true }) gatewayTransactionId?: string;

  /** When the gateway's own final word (verified callback or lookup) was recorded; a second word is a replay. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) gatewayConfirmedAt?: Date;

  @Property({ type: 'text', nullable: true }) failureReason?: string;

  /** Captured money no order could take (a late capture on a re-priced, cancelled or already-paid order): owed back. */
  @Property({ type: MoneyType }) refundAmount: Minor = 0;

  @Property({ type: 'text', nullable: true }) refundReason?: string;

  /** When an operator recorded that `refundAmount` went back to the customer. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) refundedAt?: Date;

  /** The operator's reference for the refund (the gateway's refund id, a bank slip). */
  @Property({ type: 'text', nullable: true }) refundNote?: string;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) lastCheckedAt?: Date;

  /**
   * When the payment watch (payment-watch.ts) asks the provider next; null: as soon as the attempt
   * is due. Pushed back exponentially with `checkCount`, which restarts when the attempt is paid.
   */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) nextCheckAt?: Date | null;

  @Property({ type: 'integer' }) checkCount = 0;

  /** What the provider said it gave back of a captured payment, on its own (a refund in its portal, a reversal). */
  @Enum({ items: ['PARTIAL', 'FULL'], type: 'text', nullable: true }) providerReversal?: ProviderReversalKind;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) providerReversalAt?: Date;

  @OneToMany(() => PaymentAttemptOrder, (line) => line.attempt) orders = new Collection<PaymentAttemptOrder>(this);
}
