import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../kernel/db/base-entity';
import { Document } from '../../documents/entities/document';
import { Claim } from './claim';
import { ClaimItem } from './claim-item';

/** A document attached to a claim (to one of its items, or to the claim as a whole); a document attaches once. */
@Entity({ tableName: 'claim_document' })
export class ClaimDocument extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt' | 'item';

  @ManyToOne(() => Claim, { index: 'claim_document_claim_id_index' }) claim!: Claim;

  @ManyToOne(() => ClaimItem, { fieldName: 'item_id', nullable: true }) item?: ClaimItem | null;

  @ManyToOne(() => Document, { unique: 'claim_document_document_id_unique' }) document!: Document;
}
