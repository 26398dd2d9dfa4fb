import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { UpdatableEntity } from '../../../kernel/db/base-entity';
import { MoneyType } from '../../../kernel/db/money-type';
import type { Minor } from '../../../kernel/money';
import { Disruption } from '../../catalogue/entities/disruption';
import { Order } from './order';

/**
 * AWAITING_PAYMENT until its top-up is captured: APPLIED when the capture came before the cover
 * ended, NOT_APPLIED when after (the top-up is refunded as a late capture), EXPIRED when its
 * top-up's checkout ended unpaid, with it (decision record 0099).
 */
export type AmendmentStatus = 'AWAITING_PAYMENT' | 'APPLIED' | 'NOT_APPLIED' | 'EXPIRED';

/**
 * One extension of a paid order's cover: the end it moves to, what it costs and the top-up that
 * pays for it. At most one per order is AWAITING_PAYMENT (a partial unique index).
 */
@Entity({ tableName: 'order_amendment' })
@Index({ name: 'order_amendment_order_id_index', properties: ['order'] })
@Unique({ name: 'order_amendment_order_id_idempotency_key_unique', properties: ['order', 'idempotencyKey'] })
@Unique({ name: 'order_amendment_payment_ref_order_id_unique', properties: ['paymentRef', 'order'] })
export class OrderAmendment extends UpdatableEntity {
  [OptionalProps]?:
    | 'id'
    | 'createdAt'
    | 'updatedAt'
    | 'status'
    | 'paymentRef'
    | 'appliedAt'
    | 'idempotencyKey'
    | 'requestFingerprint'
    | 'disruption';

  @Property({ type: 'text', unique: true }) amendmentRef!: string;

  @ManyToOne(() => Order) order!: Order;

  @Enum({ items: ['EXTENSION'], type: 'text' }) kind!: 'EXTENSION';

  @Enum({ items: ['AWAITING_PAYMENT', 'APPLIED', 'NOT_APPLIED', 'EXPIRED'], type: 'text' })
  status: AmendmentStatus = 'AWAITING_PAYMENT';

  @Property({ type: 'date' }) previousCoverageEndDate!: string;

  @Property({ type: 'date' }) coverageEndDate!: string;

  @Property({ type: 'integer' }) durationDays!: number;

  /** The premium of the new window by the package's pricing, the order's discount percent kept. */
  @Property({ type: MoneyType }) newPremium!: Minor;

  @Property({ type: MoneyType }) amountDue!: Minor;

  /**
   * The top-up attempt's reference; null when nothing was due (applied at once). A group's one
   * top-up is shared by its members' amendments, one each (decision record 0108).
   */
  @Property({ type: 'text', nullable: true }) paymentRef?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) appliedAt?: Date | null;

  /** The request's Idempotency-Key and what it asked for: a retry of an extension applied at once (no attempt holds its key) finds it here. */
  @Property({ type: 'uuid', nullable: true }) idempotencyKey?: string | null;

  @Property({ type: 'text', nullable: true }) requestFingerprint?: string | null;

  /** The disruption it was made under, free (decision record 0102), or null. */
  @ManyToOne(() => Disruption, { nullable: true }) disruption?: Disruption | null;
}
