import type { PromoAtOrderCreation } from './order-creation';
import type { CancellationPayments } from './order-cancellation';
import type { StreamingConnections } from '../../kernel/db/streaming-connections';
export * from './audit-log';
export * from './entities/audit-entry';
export * from './entities/order-cancellation';
export * from './order-cancellation';
export * from './rules/cancellation';
export * from './entities/order-group';
export * from './entities/order-travel-company';
export * from './entities/order';
export * from './group-lookup';
export * from './handlers';
export * from './departure-change';
export * from './order-creation';
export * from './order-book';
export * from './order-book-wire';
export * from './order-lookup';
export * from './order-overview';
export * from './order-wire';
export * from './promo-slot-store';
export * from './rules/operator-order-rules';
export * from './rules/order-reference';
export * from './rules/promo-slots';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The promos module's rules for a create request's `promoCode` (orders cannot import promos, which builds on orders). */
    promoAtOrderCreation: PromoAtOrderCreation;
    /** What cancellation needs of payments (orders cannot import payments, which builds on orders). */
    cancellationPayments: CancellationPayments;
    /** The CSV export's own database connections, apart from the request pool. */
    exportConnections: StreamingConnections;
  }
}
