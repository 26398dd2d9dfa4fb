import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../kernel/db/base-entity';
import { MoneyType } from '../../../kernel/db/money-type';
import type { Minor } from '../../../kernel/money';
import type { Schemas } from '../../../kernel/http/wire';
import { Claim } from './claim';

/** The insurer's payment of a claim, recorded by the desk (the service never moves the money); one per claim. */
@Entity({ tableName: 'claim_payout' })
export class ClaimPayout extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt';

  @ManyToOne(() => Claim, { unique: 'claim_payout_claim_id_unique' }) claim!: Claim;

  /** NPR paisa. */
  @Property({ type: MoneyType }) amount!: Minor;

  @Property({ type: 'text' }) method!: Schemas['ClaimPayout']['method'];

  @Property({ type: 'text' }) reference!: string;

  @Property({ type: 'date' }) paidOn!: string;

  @Property({ type: 'text' }) actor!: string;
}
