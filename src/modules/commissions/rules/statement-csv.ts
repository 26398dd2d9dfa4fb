import { decimalStringFromMinor } from '../../../kernel/money';
import type { StatementLine } from '../statement-rows';

/** The statement's CSV columns, in the contract's order. */
export const STATEMENT_CSV_COLUMNS = [
  'lineId', 'occurredAt', 'kind', 'role', 'orderRef', 'policyNumber', 'paymentRef', 'refundRef', 'agentId', 'base', 'percent', 'capped', 'amount', 'currency',
] as const;

// A text cell a spreadsheet would run as a formula gets a leading ' (OWASP "CSV injection"). Our
// own numbers are written as they are: a REVERSED amount is negative and must stay a number.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function textCell(value: string | null): string {
  if (value === null) return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One RFC 4180 row of a statement line, CRLF-terminated. */
export function statementCsvRow(line: StatementLine): string {
  return [
    line.lineId, line.occurredAt.toISOString(), line.kind, line.role,
    textCell(line.orderRef), textCell(line.policyNumber), textCell(line.paymentRef), textCell(line.refundRef), line.agentId ?? '',
    decimalStringFromMinor(line.base), line.percent, String(line.capped), decimalStringFromMinor(line.amount), textCell(line.currency),
  ].join(',') + '\r\n';
}

export const STATEMENT_CSV_HEADER = `${STATEMENT_CSV_COLUMNS.join(',')}\r\n`;
