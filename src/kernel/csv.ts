/**
 * RFC 4180 CSV for the exports (the order book, refunds, commission statements, claims), one row per call so a stream never holds the file.
 * A cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage
 * return) gets a leading `'`, which spreadsheets show as text (OWASP "CSV injection"). A number
 * we write ourselves (an amount) is never negative, so no real value is changed by that. A cell
 * with a `;` is quoted too: spreadsheets set to a `;` separator (most of Europe) would otherwise
 * split it, and a cell starting after that `;` escapes the formula guard.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(cells: ReadonlyArray<string | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The CSV export is the same request asked for as `text/csv` (the order book, refunds, claims). */
export const wantsCsv = (accept: string | undefined): boolean =>
  accept !== undefined && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept);
