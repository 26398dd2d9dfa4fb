import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Schemas } from '../../../kernel/http/wire';
import { AssistanceCase } from './assistance-case';
import type { CaseStatus } from '../rules/case-status';

export type CaseEntryKind = Schemas['AssistanceCaseTimelineEntry']['kind'];
export type CaseChanges = Schemas['AssistanceCaseTimelineEntry']['changes'];

/**
 * One step of a case's timeline, written in the transaction of the change it records: the
 * opening, each partner update, each status change with who made it (the partner reads these;
 * `actor` is for the operator: `api:<companyId>`, `operator-cli:<user>`).
 */
@Entity({ tableName: 'assistance_case_entry' })
@Index({ name: 'assistance_case_entry_case_id_at_index', properties: ['assistanceCase', 'at'] })
export class AssistanceCaseEntry {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @ManyToOne(() => AssistanceCase, { fieldName: 'case_id' }) assistanceCase!: AssistanceCase;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) at!: Date;

  @Property({ type: 'text' }) kind!: CaseEntryKind;

  @Property({ type: 'text' }) by!: 'PARTNER' | 'DESK';

  @Property({ type: 'text' }) actor!: string;

  /** The status after this step. */
  @Property({ type: 'text' }) status!: CaseStatus;

  @Property({ type: 'text', nullable: true }) previousStatus?: CaseStatus | null;

  @Property({ type: 'text', nullable: true }) note?: string | null;

  @Property({ type: 'json' }) changes: CaseChanges = {};
}
