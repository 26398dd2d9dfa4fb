import type { Catalogue } from './catalogue';
export * from './catalogue-import';
export * from './catalogue-listener';
export * from './catalogue';
export * from './entities/ctg';
export * from './entities/quote';
export * from './entities/route';
export * from './handlers';
export * from './rules/pricing';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The catalogue in memory, reloaded when it changes. */
    catalogue: Catalogue;
  }
}
