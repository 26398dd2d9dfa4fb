import { Route } from './route';
import { Ctg } from './ctg';
import { Quote } from './quote';
import { Disruption } from './disruption';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const CATALOGUE_ENTITIES = [Route, Ctg, Quote, Disruption];
