import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Order } from './order';

/**
 * What an operator did by hand, and who: one row per change the operator command line makes to
 * an order (cancel, record cash). Written in the same transaction as the change, so the log
 * never names a change that did not happen, nor misses one that did.
 */
@Entity({ tableName: 'audit_entry' })
@Index({ name: 'audit_entry_order_id_at_index', properties: ['order', 'at'] })
export class AuditEntry {
  [OptionalProps]?: 'id' | 'at' | 'order' | 'orderRef' | 'details';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @Property({ type: 'datetime', columnType: 'timestamptz' }) at: Date = new Date();

  /** `operator-cli:<OS user>`: the tool and the person at the keyboard. */
  @Property({ type: 'text' }) actor!: string;

  /** What was done, e.g. `ORDER_CANCELLED`, `CASH_RECORDED`. */
  @Property({ type: 'text' }) action!: string;

  @ManyToOne(() => Order, { nullable: true }) order?: Order;

  /** Kept beside the id so the entry reads on its own, in a dump or a log. */
  @Property({ type: 'text', nullable: true }) orderRef?: string;

  @Property({ type: 'json' }) details: Record<string, unknown> = {};
}
