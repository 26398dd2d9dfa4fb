import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Schemas } from '../../../kernel/http/wire';

/** A trek route of the catalogue; only active routes are offered to partners. */
@Entity({ tableName: 'route' })
export class Route {
  [OptionalProps]?: 'active' | 'description' | 'area';

  @PrimaryKey({ type: 'uuid' }) id!: string;

  @Property({ type: 'text' }) name!: string;

  @Property({ type: 'text' }) region!: string;

  @Property({ type: 'text' }) trekName!: string;

  @Property({ type: 'text' }) routeType!: Schemas['RouteSummary']['routeType'];

  @Property({ type: 'text' }) routeCategory!: Schemas['RouteSummary']['routeCategory'];

  @Property({ type: 'integer' }) maxAltitude!: number;

  /** The airstrip its trekkers fly through (`LUKLA`), which a disruption is declared for; null: none (decision record 0102). */
  @Property({ type: 'text', nullable: true }) area?: string | null;

  @Property({ type: 'text' }) description: string = '';

  @Property({ type: 'boolean' }) active: boolean = true;
}
