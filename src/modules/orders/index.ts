import type { PromoAtOrderCreation } from './order-creation';
import { OrderGroup } from './entities/order-group';
import { Order } from './entities/order';
import { OrderTravelCompany } from './entities/order-travel-company';
import { AuditEntry } from './entities/audit-entry';
export * from './audit-log';
export * from './entities/audit-entry';
export * from './entities/order-group';
export * from './entities/order-travel-company';
export * from './entities/order';
export * from './group-lookup';
export * from './handlers';
export * from './order-creation';
export * from './order-lookup';
export * from './order-overview';
export * from './order-wire';
export * from './promo-slot-store';
export * from './rules/operator-order-rules';
export * from './rules/order-reference';
export * from './rules/promo-slots';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const ORDER_ENTITIES = [OrderGroup, Order, OrderTravelCompany, AuditEntry];

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The promos module's rules for a create request's `promoCode` (orders cannot import promos, which builds on orders). */
    promoAtOrderCreation: PromoAtOrderCreation;
  }
}
