import { Company } from './entities/company';
import { SalesAgent } from './entities/sales-agent';
export * from './demo-data-guard';
export * from './demo-partners';
export * from './entities/company';
export * from './entities/sales-agent';
export * from './partner-access';
export * from './seed';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const PARTNER_ENTITIES = [Company, SalesAgent];
