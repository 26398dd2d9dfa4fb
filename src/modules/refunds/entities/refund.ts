import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import type { RefundCause, RefundStatus } from '../rules/refund-life';
import { MoneyType } from '../../../kernel/db/money-type';
import { Order } from '../../orders/entities/order';
import { PaymentAttempt, type PaymentMethod } from '../../payments/entities/payment-attempt';
import { UpdatableEntity } from '../../../kernel/db/base-entity';

/**
 * Money going back to a customer for one order's share of one payment (decision record
 * 0062): written in the transaction that makes it owed (a cancellation, a late capture, a
 * reversal the provider reports), then executed after commit by the refund executor through the
 * provider port. `amount + fee` is the share the payment took for the order.
 *
 * Its life (status, tries, next try, provider's word, completion, note) is `readonly` here: one
 * function writes it, refund-life.ts's `moveRefund`, by the machine in rules/refund-life.ts,
 * with the audit entry and the event of each step (decision record 0075).
 */
@Entity({ tableName: 'refund' })
@Index({ name: 'refund_due_index', properties: ['status', 'nextTryAt'] })
@Index({ name: 'refund_order_id_index', properties: ['order'] })
@Index({ name: 'refund_attempt_id_index', properties: ['attempt'] })
export class Refund extends UpdatableEntity {
  [OptionalProps]?:
    | 'id'
    | 'fee'
    | 'status'
    | 'tries'
    | 'outcomeUnknown'
    | 'nextTryAt'
    | 'claimedUntil'
    | 'lastError'
    | 'provider'
    | 'providerRefundRef'
    | 'completedAt'
    | 'note'
    | 'createdAt'
    | 'updatedAt';

  /** `RFD-<year>-<seq>`, drawn from `refund_ref_seq`. */
  @Property({ type: 'text', unique: true }) refundRef!: string;

  @ManyToOne(() => Order) order!: Order;

  /** The payment whose share goes back (a cash record for a CASH order). */
  @ManyToOne(() => PaymentAttempt) attempt!: PaymentAttempt;

  @Enum({ items: ['CANCELLATION', 'LATE_CAPTURE', 'PROVIDER_REVERSAL', 'TOP_UP_REFUND'], type: 'text' })
  cause!: RefundCause;

  /** What goes back to the customer. */
  @Property({ type: MoneyType }) amount!: Minor;

  /** What the cancellation keeps (CANCELLATION_FEE_PERCENT after the free look); 0 otherwise. */
  @Property({ type: MoneyType }) fee: Minor = 0;

  @Property({ type: 'text' }) currency!: string;

  @Enum({ items: ['PENDING', 'SUCCEEDED', 'FAILED', 'MANUAL'], type: 'text' }) readonly status: RefundStatus =
    'PENDING';

  /** The gateway of the payment: where the money goes back through. */
  @Enum({ items: ['card_gateway', 'wallet_gateway', 'cash'], type: 'text' }) gateway!: PaymentMethod;

  /** The provider that served the gateway when the refund was tried (sandbox, khalti, esewa). */
  @Property({ type: 'text', nullable: true }) readonly provider?: string;

  /** The provider's reference for the refund (Khalti's refund transaction), or the operator's note of one. */
  @Property({ type: 'text', nullable: true }) readonly providerRefundRef?: string;

  /** How many times the executor asked the provider. */
  @Property({ type: 'integer' }) readonly tries: number = 0;

  /**
   * Whether an earlier try may have reached the provider's refund call and its answer was never
   * learnt (lost, timed out, or the process died mid-call): the next try is then a retry, which
   * looks first and cannot take a partial refund the provider shows as its own. A try that
   * failed before anything was sent (the lookup) leaves it as it was.
   */
  @Property({ type: 'boolean' }) readonly outcomeUnknown: boolean = false;

  /** When the executor may try again (back-off); null when nothing is left to try. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) readonly nextTryAt?: Date | null;

  /** While the executor is at the provider for it: no other refund of the payment is sent meanwhile. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) readonly claimedUntil?: Date | null;

  @Property({ type: 'text', nullable: true }) readonly lastError?: string | null;

  /** When it reached SUCCEEDED or FAILED (or an operator confirmed a MANUAL one). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) readonly completedAt?: Date | null;

  /** Who wrote it, and the operator's note when confirmed by hand. */
  @Property({ type: 'text', nullable: true }) readonly note?: string | null;

  @Property({ type: 'text' }) actor!: string;
}
