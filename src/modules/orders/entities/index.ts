import { OrderGroup } from './order-group';
import { Order } from './order';
import { OrderTravelCompany } from './order-travel-company';
import { AuditEntry } from './audit-entry';
import { OrderCancellation } from './order-cancellation';
import { OrderAmendment } from './order-amendment';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const ORDER_ENTITIES = [OrderGroup, Order, OrderTravelCompany, AuditEntry, OrderCancellation, OrderAmendment];
