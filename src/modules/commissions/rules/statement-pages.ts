/** How many lines each page of the printed statement holds: the first has the totals above its table. */
export const FIRST_PAGE_LINES = 44;
export const LINES_PER_PAGE = 58;

/** Pages of a statement of `lines` lines (one page even when it has none): known before the first is drawn, for "Page 1 of N". */
export function statementPageCount(lines: number): number {
  return lines <= FIRST_PAGE_LINES ? 1 : 1 + Math.ceil((lines - FIRST_PAGE_LINES) / LINES_PER_PAGE);
}
