import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { MoneyType } from '../../../kernel/db/money-type';
import type { Minor } from '../../../kernel/money';
import { ClaimItem } from './claim-item';

/**
 * What the desk approved of one item: the amount in the item's currency, the rate it recorded
 * (NPR for one unit, four decimals, with its date; null for NPR) and the NPR paisa it gives.
 * Written only by `moveClaim` with the decision.
 */
@Entity({ tableName: 'claim_item_decision' })
export class ClaimItemDecision {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @ManyToOne(() => ClaimItem, { fieldName: 'item_id', unique: 'claim_item_decision_item_id_unique' }) item!: ClaimItem;

  @Property({ type: MoneyType }) approvedAmount!: Minor;

  @Property({ type: 'decimal', precision: 12, scale: 4, nullable: true }) exchangeRate?: string | null;

  @Property({ type: 'date', nullable: true }) rateDate?: string | null;

  @Property({ type: MoneyType }) approvedNpr!: Minor;

  @Property({ type: 'text', nullable: true }) note?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) decidedAt!: Date;
}
