import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../kernel/db/base-entity';
import { Document } from '../../documents/entities/document';
import { AssistanceCase } from './assistance-case';

/** A MEDICAL_REPORT document attached to a case; a document attaches to one case at most. */
@Entity({ tableName: 'assistance_case_document' })
export class AssistanceCaseDocument extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt';

  @ManyToOne(() => AssistanceCase, { fieldName: 'case_id', index: 'assistance_case_document_case_id_index' })
  assistanceCase!: AssistanceCase;

  @ManyToOne(() => Document, { unique: 'assistance_case_document_document_id_unique' }) document!: Document;
}
