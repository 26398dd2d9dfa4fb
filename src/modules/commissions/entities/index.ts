import { CommissionEntry } from './commission-entry';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const COMMISSION_ENTITIES = [CommissionEntry];
