import type { Catalogue } from './catalogue';

/** The catalogue module's face: the catalogue in memory, its import and reload, the reference handlers and the price rule; only what the composition, the CLI and other modules use. */
export { Catalogue, type CatalogueSnapshot, readCatalogue } from './catalogue';
export { SEED_CATALOGUE_FILE, importCatalogue, readCatalogueFile } from './catalogue-import';
export { type CatalogueListener, listenForCatalogueChanges } from './catalogue-listener';
export { cataloguePolicies, referenceHandlers } from './handlers';
export { pricePackage } from './rules/pricing';
export { markQuoteUsed } from './quote-use';
export { MAX_TRIP_DAYS } from './rules/quote-request';
export { declareDisruption, disruptionByRef, endDisruption, listDisruptions, type DisruptionWire } from './disruptions';
export { disruptionStatus, lastDayOf } from './rules/disruption';
export type { Disruption } from './entities/disruption';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The catalogue in memory, reloaded when it changes. */
    catalogue: Catalogue;
  }
}
