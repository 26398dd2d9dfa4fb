import { Refund } from './refund';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const REFUND_ENTITIES = [Refund];
