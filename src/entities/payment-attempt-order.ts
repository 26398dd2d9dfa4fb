import { Entity, ManyToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import type { Minor } from '../domain/money';
import { MoneyType } from './money-type';
import { Order } from './order';
import type { PaymentAttempt } from './payment-attempt';

/** One order a payment attempt charges for, and how much of the attempt's amount is this order's. */
@Entity({ tableName: 'payment_attempt_order' })
export class PaymentAttemptOrder {
  [PrimaryKeyProp]?: ['attempt', 'order'];

  @ManyToOne({ entity: () => 'PaymentAttempt', primary: true, deleteRule: 'cascade' })
  attempt!: PaymentAttempt;

  @ManyToOne(() => Order, { primary: true, index: 'payment_attempt_order_order_id_index' })
  order!: Order;

  @Property({ type: MoneyType })
  amount!: Minor;
}
