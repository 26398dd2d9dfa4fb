import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Schemas } from '../../../kernel/http/wire';
import { Claim } from './claim';
import type { ClaimStatus } from '../rules/claim-life';

/**
 * One step of a claim's timeline, written in the transaction of the change it records (the
 * partner reads these; `actor` is for the operator: `api:<companyId>`, `operator-cli:<user>`,
 * `sandbox-helper`).
 */
@Entity({ tableName: 'claim_entry' })
@Index({ name: 'claim_entry_claim_id_at_index', properties: ['claim', 'at'] })
export class ClaimEntry {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @ManyToOne(() => Claim) claim!: Claim;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) at!: Date;

  @Property({ type: 'text' }) kind!: Schemas['ClaimTimelineEntry']['kind'];

  @Property({ type: 'text' }) by!: 'PARTNER' | 'DESK';

  @Property({ type: 'text' }) actor!: string;

  @Property({ type: 'text' }) status!: ClaimStatus;

  @Property({ type: 'text', nullable: true }) previousStatus?: ClaimStatus | null;

  @Property({ type: 'text', nullable: true }) note?: string | null;

  @Property({ type: 'json' }) documentIds: string[] = [];
}
