/**
 * How much one case holds, so its detail stays a bounded answer (the contract's maxItems): the
 * timeline is the opening, at most this many partner updates and the desk's few moves.
 */
export const MAX_UPDATES_PER_CASE = 200;

/** Documents attached to one case, over its opening and all its updates. */
export const MAX_DOCUMENTS_PER_CASE = 50;
