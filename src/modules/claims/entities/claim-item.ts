import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { MoneyType } from '../../../kernel/db/money-type';
import type { Minor } from '../../../kernel/money';
import { Claim } from './claim';

/** One invoiced cost of a claim, in its invoice's currency (minor units of that currency, two decimals). */
@Entity({ tableName: 'claim_item' })
@Unique({ name: 'claim_item_claim_id_position_unique', properties: ['claim', 'position'] })
export class ClaimItem {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @ManyToOne(() => Claim) claim!: Claim;

  /** From 1, in the order filed. */
  @Property({ type: 'integer' }) position!: number;

  @Property({ type: 'text' }) description!: string;

  @Property({ type: MoneyType }) amount!: Minor;

  @Property({ type: 'text' }) currency!: string;

  @Property({ type: 'text' }) invoiceNumber!: string;

  @Property({ type: 'text' }) providerName!: string;
}
