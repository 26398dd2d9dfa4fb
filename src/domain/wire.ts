import type { components } from '../../generated/api';

/**
 * Wire types come from the spec (generated/), never hand-copied. Type-only and free of any
 * layer's code, so domain rules and services may name the shapes they accept and return.
 */
export type Schemas = components['schemas'];
