/**
 * How many lines each page of the printed statement (A4 landscape) holds: the first has the
 * heading and totals above its table. The last page also holds the closing block (the totals
 * again, the legend and the tax sentence), `CLOSING_ROWS` lines high; a last page without room
 * for it is followed by one that holds only it.
 */
export const FIRST_PAGE_LINES = 28;
export const LINES_PER_PAGE = 40;
export const CLOSING_ROWS = 11;

/** Pages of a statement of `lines` lines (one page even when it has none): known before the first is drawn, for "Page 1 of N". */
export function statementPageCount(lines: number): number {
  // A statement without lines prints one row saying so.
  const rows = Math.max(lines, 1);
  const pages = rows <= FIRST_PAGE_LINES ? 1 : 1 + Math.ceil((rows - FIRST_PAGE_LINES) / LINES_PER_PAGE);
  return closingFits(rows, pages) ? pages : pages + 1;
}

/** Whether the closing block fits under the last of `rows` rows, on the last of `pages` pages they fill. */
export function closingFits(rows: number, pages: number): boolean {
  const capacity = pages === 1 ? FIRST_PAGE_LINES : LINES_PER_PAGE;
  const used = pages === 1 ? rows : rows - FIRST_PAGE_LINES - (pages - 2) * LINES_PER_PAGE;
  return capacity - used >= CLOSING_ROWS;
}
