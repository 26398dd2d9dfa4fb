import type { components } from '../../generated/api';

/** Wire types come from the spec (generated/), never hand-copied. */
export type Schemas = components['schemas'];
