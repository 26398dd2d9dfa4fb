import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../kernel/db/base-entity';
import { Company } from '../../partners/entities/company';
import { Order } from './order';
import type { CancellationReason } from '../rules/cancellation';

/**
 * How an order was cancelled: one row per cancelled order, written in the cancellation's
 * transaction. A partner's cancellation is also the idempotency record of its request:
 * (company, idempotencyKey) is unique and `requestFingerprint` binds the key to one order and body.
 */
@Entity({ tableName: 'order_cancellation' })
@Unique({ name: 'order_cancellation_company_id_idempotency_key_unique', properties: ['company', 'idempotencyKey'] })
export class OrderCancellation extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt' | 'note' | 'company' | 'idempotencyKey' | 'requestFingerprint';

  @ManyToOne(() => Order, { unique: 'order_cancellation_order_id_unique' }) order!: Order;

  /** `TRIP_CANCELLED`, `TRAVELLER_REQUEST`, `DUPLICATE_BOOKING`, `OTHER` (the partner's), `OPERATOR`, `PAYMENT_REVERSED`. */
  @Property({ type: 'text' }) reason!: CancellationReason;

  @Property({ type: 'text', nullable: true }) note?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) cancelledAt!: Date;

  /** `api:<companyId>`, `operator-cli:<user>`, `reversal-watch` ... */
  @Property({ type: 'text' }) actor!: string;

  /** The partner that asked (null for the operator and the service). */
  @ManyToOne(() => Company, { nullable: true }) company?: Company | null;

  @Property({ type: 'uuid', nullable: true }) idempotencyKey?: string | null;

  @Property({ type: 'text', nullable: true }) requestFingerprint?: string | null;
}
