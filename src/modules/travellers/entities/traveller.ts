import { OptionalProps, type Rel } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Company } from '../../partners/entities/company';
import { Document } from '../../documents/entities/document';
import type { Schemas } from '../../../kernel/http/wire';
import { BaseEntity } from '../../../kernel/db/base-entity';

/**
 * A person registered by one company; only that company ever sees or books them. The table also
 * has a generated, trigram-indexed `search_text` column (see the migration) that `search` uses;
 * it is not mapped because nothing writes or reads it as a field.
 */
@Entity({ tableName: 'traveller' })
@Index({ properties: ['company', 'createdAt'] })
export class Traveller extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt';

  @ManyToOne(() => Company) company!: Company;

  @Property({ type: 'text' }) email!: string;

  @Property({ type: 'text' }) name!: string;

  /** The name as the passport's machine-readable zone prints it (A-Z, upper-cased): what a checkpoint reads when `name` is in a script it cannot. */
  @Property({ type: 'text', nullable: true }) nameAsInPassport?: string;

  @Property({ type: 'date' }) dateOfBirth!: string;

  @Property({ type: 'text' }) nationality!: string;

  @Property({ type: 'text', nullable: true }) countryOfResidence?: string;

  @Property({ type: 'text' }) idType!: Schemas['Traveller']['idType'];

  @Property({ type: 'text' }) idNumber!: string;

  @Property({ type: 'text', nullable: true }) motherTongue?: string;

  @Property({ type: 'text', nullable: true }) bloodGroup?: string;

  @Property({ type: 'text' }) gender!: Schemas['Traveller']['gender'];

  @Property({ type: 'text' }) phone!: string;

  @Property({ type: 'decimal', precision: 5, scale: 1, nullable: true }) height?: string;

  @Property({ type: 'decimal', precision: 5, scale: 1, nullable: true }) weight?: string;

  @Property({ type: 'boolean', nullable: true }) englishService?: boolean;

  @Property({ type: 'text' }) emergencyContactName!: string;

  @Property({ type: 'text' }) emergencyContactPhone!: string;

  @Property({ type: 'text' }) emergencyContactEmail!: string;

  @Property({ type: 'text' }) emergencyContactRelation!: string;

  @Property({ type: 'text', nullable: true }) medicalHistory?: string;

  @Property({ type: 'text', nullable: true }) allergy?: string;

  @ManyToOne(() => Document) avatarDocument!: Rel<Document>;

  @ManyToOne(() => Document) passportDocument!: Rel<Document>;

  @ManyToOne(() => Document) signatureDocument!: Rel<Document>;

  @ManyToOne(() => Document, { nullable: true }) visaDocument?: Rel<Document>;
}
