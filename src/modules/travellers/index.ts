import { Traveller } from './entities/traveller';
export * from './entities/traveller';
export * from './handlers';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const TRAVELLER_ENTITIES = [Traveller];
