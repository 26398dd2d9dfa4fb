/** SPEC section 1: zero-based pages, size default 20, values above 100 clamped (not rejected). */
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  size: number;
}

export function pageRequest(page: number | undefined, size: number | undefined): PageRequest {
  return { page: page ?? 0, size: Math.min(size ?? 20, MAX_PAGE_SIZE) };
}

/** Spring-style metadata, used by /reference/ctgs and /travellers. */
export function springPage<T>(content: T[], request: PageRequest, totalElements: number) {
  const totalPages = Math.ceil(totalElements / request.size);
  return {
    content,
    page: request.page,
    size: request.size,
    totalElements,
    totalPages,
    first: request.page === 0,
    last: request.page >= totalPages - 1,
  };
}

/** The separate envelope of /reference/routes. */
export function routePage<T>(content: T[], request: PageRequest, totalItems: number) {
  const totalPages = Math.ceil(totalItems / request.size);
  return {
    content,
    pagination: {
      page: request.page,
      size: request.size,
      totalItems,
      totalPages,
      hasNext: request.page < totalPages - 1,
    },
  };
}

/**
 * Rows to skip for a page. Any integer page is valid (a page past the end is empty), but a page
 * like 10^20 would overflow PostgreSQL's bigint OFFSET; no table reaches 2^53 rows anyway.
 */
export function offsetOf(request: PageRequest): number {
  return Math.min(request.page * request.size, Number.MAX_SAFE_INTEGER);
}

export function slice<T>(items: readonly T[], request: PageRequest): T[] {
  const start = offsetOf(request);
  return items.slice(start, start + request.size);
}

export type SortDirection = 'asc' | 'desc';

export function compareBy<T>(key: (item: T) => string | number, direction: SortDirection): (a: T, b: T) => number {
  const sign = direction === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  };
}
