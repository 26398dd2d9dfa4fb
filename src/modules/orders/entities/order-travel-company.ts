import { OptionalProps, PrimaryKeyProp, type Rel } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Company } from '../../partners/entities/company';
import { Order } from './order';

/**
 * A registered travel agency listed on an order: it may read the order and earns commission on it.
 * Indexed by company so "orders visible to this agency" stays one index lookup.
 */
@Entity({ tableName: 'order_travel_company' })
export class OrderTravelCompany {
  [PrimaryKeyProp]?: ['order', 'company'];
  [OptionalProps]?: 'placer';

  @ManyToOne({ entity: () => Order, primary: true, deleteRule: 'cascade' }) order!: Rel<Order>;

  @ManyToOne(() => Company, { primary: true, index: 'order_travel_company_company_id_index' }) company!: Company;

  /** Position in the request (the injected own company first), so responses list them stably. */
  @Property({ type: 'smallint' }) position!: number;

  /**
   * The agency placed the order itself (a travel agency is put on each of its orders). The order
   * book's "listed by others" reads the rows without it through a partial index.
   */
  @Property({ type: 'boolean' }) placer: boolean = false;
}
