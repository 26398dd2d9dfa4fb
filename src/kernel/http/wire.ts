import type { components, operations } from '../../../generated/api';

/**
 * Wire types come from the spec (generated/), never hand-copied. Type-only and free of any
 * layer's code, so domain rules and services may name the shapes they accept and return.
 */
export type Schemas = components['schemas'];

/** An operation's query parameters, as the spec defines them. */
export type QueryOf<Id extends keyof operations> = NonNullable<operations[Id]['parameters']['query']>;
