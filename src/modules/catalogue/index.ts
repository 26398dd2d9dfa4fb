import type { Catalogue } from './catalogue';
import { Route } from './entities/route';
import { Ctg } from './entities/ctg';
import { Quote } from './entities/quote';
export * from './catalogue-import';
export * from './catalogue-listener';
export * from './catalogue';
export * from './entities/ctg';
export * from './entities/quote';
export * from './entities/route';
export * from './handlers';
export * from './rules/pricing';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const CATALOGUE_ENTITIES = [Route, Ctg, Quote];

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The catalogue in memory, reloaded when it changes. */
    catalogue: Catalogue;
  }
}
