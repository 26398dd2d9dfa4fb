import { OptionalProps } from '@mikro-orm/core';
import { Entity, Property } from '@mikro-orm/decorators/legacy';
import { UpdatableEntity } from '../../../kernel/db/base-entity';

/**
 * A disruption the operator declared for an area (flights out of Lukla grounded from `startsOn`
 * to `endsOn`, Nepal dates): a paid cover of a route in the area ending within it may be
 * extended free by up to `maxDays` (decision record 0102). Ended early, `endedOn` is its last day.
 */
@Entity({ tableName: 'disruption' })
export class Disruption extends UpdatableEntity {
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt' | 'endedOn' | 'endedAt' | 'endedBy';

  /** `D-<year>-<seq>`: what partners send as `disruptionId`. */
  @Property({ type: 'text', unique: true }) disruptionRef!: string;

  @Property({ type: 'text' }) area!: string;

  @Property({ type: 'date' }) startsOn!: string;

  @Property({ type: 'date' }) endsOn!: string;

  @Property({ type: 'integer' }) maxDays!: number;

  @Property({ type: 'text' }) note!: string;

  @Property({ type: 'text' }) declaredBy!: string;

  /** The last day of a disruption the operator ended early, or null. */
  @Property({ type: 'date', nullable: true }) endedOn?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true }) endedAt?: Date | null;

  @Property({ type: 'text', nullable: true }) endedBy?: string | null;
}
