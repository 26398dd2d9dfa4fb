import { OptionalProps, PrimaryKeyProp, type Rel } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../kernel/money';
import type { ShareSettlement } from '../rules/payment-attempt';
import { MoneyType } from '../../../kernel/db/money-type';
import { Order } from '../../orders/entities/order';
import { PaymentAttempt } from './payment-attempt';

/** One order a payment attempt charges for, and how much of the attempt's amount is this order's. */
@Entity({ tableName: 'payment_attempt_order' })
export class PaymentAttemptOrder {
  [PrimaryKeyProp]?: ['attempt', 'order'];
  [OptionalProps]?: 'settlement';

  @ManyToOne({ entity: () => PaymentAttempt, primary: true, deleteRule: 'cascade' }) attempt!: Rel<PaymentAttempt>;

  @ManyToOne(() => Order, { primary: true, index: 'payment_attempt_order_order_id_index' }) order!: Order;

  /** The order's share of the attempt: what payment-status reports as this order's `amount`. */
  @Property({ type: MoneyType }) amount!: Minor;

  /** Set once the gateway captured: whether this share paid its order or is owed back. */
  @Enum({ items: ['PAID', 'REFUND_PENDING', 'REFUNDED'], type: 'text', nullable: true }) settlement?: ShareSettlement;
}
