import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { UpdatableEntity } from '../../../kernel/db/base-entity';
import { MoneyType } from '../../../kernel/db/money-type';
import type { Minor } from '../../../kernel/money';
import type { Schemas } from '../../../kernel/http/wire';
import { Company } from '../../partners/entities/company';
import { Order } from '../../orders/entities/order';
import { AssistanceCase } from '../../assistance/entities/assistance-case';
import type { ClaimStatus } from '../rules/claim-life';

export type ClaimType = Schemas['ClaimType'];
export type ClaimFlag = Schemas['ClaimFlag'];
export type ClaimPayee = Schemas['ClaimPayee'];
export type DeclineReason = Schemas['ClaimDeclineReason'];

/**
 * A claim on a paid policy. Its status and decision move only through `moveClaim`
 * (claim-life.ts, decision record 0095). The filing is also the idempotency record:
 * (filedByCompany, idempotencyKey) is unique and `requestFingerprint` binds the key to one order and body.
 */
@Entity({ tableName: 'claim' })
@Unique({ name: 'claim_company_id_idempotency_key_unique', properties: ['filedByCompany', 'idempotencyKey'] })
@Index({ name: 'claim_status_filed_at_index', properties: ['status', 'filedAt'] })
export class Claim extends UpdatableEntity {
  [OptionalProps]?:
    | 'id'
    | 'createdAt'
    | 'updatedAt'
    | 'location'
    | 'altitudeMeters'
    | 'assistanceCase'
    | 'approvedTotal'
    | 'excessApplied'
    | 'declineReason'
    | 'decisionNote'
    | 'decidedAt'
    | 'withdrawalReason'
    | 'payoutCap'
    | 'payoutCapNote';

  @Property({ type: 'text', unique: 'claim_claim_ref_unique' }) claimRef!: string;

  @ManyToOne(() => Order, { index: 'claim_order_id_index' }) order!: Order;

  /** The placing company or the listed agency that filed it. */
  @ManyToOne(() => Company) filedByCompany!: Company;

  @Property({ type: 'text' }) readonly status!: ClaimStatus;

  @Property({ type: 'text' }) claimType!: ClaimType;

  /** The package's coverage line the claim is paid from (its limit caps the approval). */
  @Property({ type: 'text' }) coverageLine!: string;

  @Property({ type: 'date' }) incidentDate!: string;

  @Property({ type: 'text' }) incidentDescription!: string;

  @Property({ type: 'text', nullable: true }) location?: string | null;

  @Property({ type: 'integer', nullable: true }) altitudeMeters?: number | null;

  @ManyToOne(() => AssistanceCase, { nullable: true }) assistanceCase?: AssistanceCase | null;

  @Property({ type: 'json' }) payee!: ClaimPayee;

  @Property({ type: 'json' }) flags!: ClaimFlag[];

  @Property({ type: 'datetime', columnType: 'timestamptz' }) filedAt!: Date;

  /** NPR paisa to pay, once decided (0 when declined). */
  @Property({ type: MoneyType, nullable: true }) readonly approvedTotal?: Minor | null;

  @Property({ type: MoneyType, nullable: true }) readonly excessApplied?: Minor | null;

  @Property({ type: 'text', nullable: true }) readonly declineReason?: DeclineReason | null;

  @Property({ type: 'text', nullable: true }) readonly decisionNote?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) readonly decidedAt?: Date | null;

  @Property({ type: 'text', nullable: true }) readonly withdrawalReason?: string | null;

  /**
   * NPR paisa at most, for a claim billed from an assistance case's guarantee of payment: the
   * guarantee's cost limit, or what the desk raised it to (decision record 0101); null otherwise.
   */
  @Property({ type: MoneyType, nullable: true }) payoutCap?: Minor | null;

  /** Why the desk raised the cap above the guarantee. */
  @Property({ type: 'text', nullable: true }) payoutCapNote?: string | null;

  @Property({ type: 'uuid' }) idempotencyKey!: string;

  @Property({ type: 'text' }) requestFingerprint!: string;
}
