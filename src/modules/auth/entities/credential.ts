import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Company } from '../../partners/entities/company';
import { BaseEntity } from '../../../kernel/db/base-entity';

/** A clientId/secret pair issued by the operator; the secret is kept only as a hash (see credential-secret). */
@Entity({ tableName: 'credential' })
export class Credential extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt' | 'revokedAt';

  @Property({ type: 'text', unique: true }) clientId!: string;

  @Property({ type: 'text', hidden: true }) secretHash!: string;

  @ManyToOne(() => Company) company!: Company;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) revokedAt?: Date;
}
