import { randomUUID } from 'node:crypto';
import { OptionalProps, type Rel } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Company } from '../../partners/entities/company';
import { Traveller } from '../../travellers/entities/traveller';

import { DocumentType } from '../rules/document-type';

// Tests and the CLI name it beside the entity; the rules import it from rules/document-type.ts.
export { DocumentType };

/**
 * An uploaded traveller document. A draft until a traveller takes it; drafts past their TTL are
 * purged with their bytes, an attached document never is.
 */
@Entity({ tableName: 'document' })
@Index({
  properties: ['uploadedAt'],
  options: { where: 'traveller_id is null' },
  name: 'document_draft_uploaded_at_index',
})
export class Document {
  [OptionalProps]?: 'id' | 'uploadedAt' | 'traveller' | 'attachedAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();

  @ManyToOne(() => Company) company!: Company;

  @Enum({ items: () => DocumentType }) documentType!: DocumentType;

  /** Sanitised, display-only name; the bytes live under storageKey. */
  @Property({ type: 'text' }) fileName!: string;

  @Property({ type: 'bigint' }) fileSize!: number;

  /** Sniffed from the bytes, never the client's header. */
  @Property({ type: 'text' }) contentType!: string;

  /** Generated name in the storage port; never derived from client input. */
  @Property({ type: 'text', unique: true }) storageKey!: string;

  @Property({ type: 'text' }) sha256!: string;

  @ManyToOne({ entity: () => Traveller, nullable: true }) traveller?: Rel<Traveller>;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) attachedAt?: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) uploadedAt: Date = new Date();
}
