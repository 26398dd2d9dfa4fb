import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Company } from './company';

/** A clientId/secret pair issued by the operator; the secret is kept only as a hash (see credential-secret). */
@Entity({ tableName: 'credential' })
export class Credential {
  [OptionalProps]?: 'id' | 'createdAt' | 'revokedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text', unique: true })
  clientId!: string;

  @Property({ type: 'text', hidden: true })
  secretHash!: string;

  @ManyToOne(() => Company)
  company!: Company;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date;
}
