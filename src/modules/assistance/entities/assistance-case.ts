import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { UpdatableEntity } from '../../../kernel/db/base-entity';
import { MoneyType } from '../../../kernel/db/money-type';
import type { Minor } from '../../../kernel/money';
import type { Schemas } from '../../../kernel/http/wire';
import { Company } from '../../partners/entities/company';
import { Order } from '../../orders/entities/order';
import { Traveller } from '../../travellers/entities/traveller';
import type { CaseStatus } from '../rules/case-status';
import type { CoverageNote } from '../rules/coverage-notes';

export type CaseLocation = Schemas['AssistanceLocation'];
export type CaseReporter = Schemas['AssistanceReporter'];

/**
 * An emergency of an insured traveller and what the assistance desk decided. Its status moves
 * only through `moveCase` (case-transition.ts). The opening request is also the idempotency
 * record: (openedByCompany, idempotencyKey) is unique and `requestFingerprint` binds the key to
 * one order and body.
 */
@Entity({ tableName: 'assistance_case' })
@Unique({
  name: 'assistance_case_company_id_idempotency_key_unique',
  properties: ['openedByCompany', 'idempotencyKey'],
})
@Index({ name: 'assistance_case_status_opened_at_index', properties: ['status', 'openedAt'] })
export class AssistanceCase extends UpdatableEntity {
  [OptionalProps]?:
    | 'id'
    | 'createdAt'
    | 'updatedAt'
    | 'proposedOperator'
    | 'reviewedAt'
    | 'guaranteeRef'
    | 'guaranteeOperator'
    | 'guaranteeCostLimit'
    | 'guaranteeCurrency'
    | 'destinationHospital'
    | 'authorisedAt'
    | 'declineReason'
    | 'withdrawalReason';

  @Property({ type: 'text', unique: 'assistance_case_case_ref_unique' }) caseRef!: string;

  @ManyToOne(() => Order, { index: 'assistance_case_order_id_index' }) order!: Order;

  /** The traveller of the order, kept here for the one-open-case-per-traveller index. */
  @ManyToOne(() => Traveller) traveller!: Traveller;

  /** The placing company or the listed agency that opened it. */
  @ManyToOne(() => Company) openedByCompany!: Company;

  @Property({ type: 'text' }) status!: CaseStatus;

  @Property({ type: 'text' }) category!: Schemas['AssistanceCaseCategory'];

  @Property({ type: 'text' }) requestedService!: Schemas['AssistanceRequestedService'];

  /** The latest location reported (updates replace it; the timeline keeps each). */
  @Property({ type: 'json' }) location!: CaseLocation;

  @Property({ type: 'integer' }) altitudeMeters!: number;

  @Property({ type: 'text' }) summary!: string;

  @Property({ type: 'json' }) reporter!: CaseReporter;

  @Property({ type: 'text', nullable: true }) proposedOperator?: string | null;

  /** Noted at opening against the altitude and the day then. */
  @Property({ type: 'json' }) coverageNotes!: CoverageNote[];

  @Property({ type: 'datetime', columnType: 'timestamptz' }) openedAt!: Date;

  /** When the desk took it up (RECEIVED to UNDER_REVIEW): the start of assistance_case_seconds_to_review. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) reviewedAt?: Date | null;

  @Property({ type: 'text', nullable: true }) guaranteeRef?: string | null;

  @Property({ type: 'text', nullable: true }) guaranteeOperator?: string | null;

  @Property({ type: MoneyType, nullable: true }) guaranteeCostLimit?: Minor | null;

  @Property({ type: 'text', nullable: true }) guaranteeCurrency?: string | null;

  @Property({ type: 'text', nullable: true }) destinationHospital?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) authorisedAt?: Date | null;

  /** Written by the desk for the partner and the traveller to read. */
  @Property({ type: 'text', nullable: true }) declineReason?: string | null;

  @Property({ type: 'text', nullable: true }) withdrawalReason?: string | null;

  @Property({ type: 'uuid' }) idempotencyKey!: string;

  @Property({ type: 'text' }) requestFingerprint!: string;
}
