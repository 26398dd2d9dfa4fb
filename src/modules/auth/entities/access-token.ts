import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Credential } from './credential';
import { BaseEntity } from '../../../kernel/db/base-entity';

/** A bearer token; only its SHA-256 is stored, so a database leak yields no usable token. */
@Entity({ tableName: 'access_token' })
@Index({ properties: ['expiresAt'] })
export class AccessToken extends BaseEntity {
  [OptionalProps]?: 'id' | 'createdAt' | 'revokedAt';

  @Property({ type: 'text', unique: true }) tokenHash!: string;

  @ManyToOne(() => Credential) credential!: Credential;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) revokedAt?: Date;
}
