import { decimalStringFromMinor } from '../../../kernel/money';
import { csvCell } from '../../../kernel/csv';
import type { StatementLine } from '../statement-rows';

/** The statement's CSV columns, in the contract's order. */
export const STATEMENT_CSV_COLUMNS = [
  'lineId',
  'occurredAt',
  'kind',
  'role',
  'orderRef',
  'policyNumber',
  'paymentRef',
  'refundRef',
  'agentId',
  'base',
  'percent',
  'capped',
  'amount',
  'currency',
  // Added after the first columns, so a reader of those finds them where they were (decision record 0098).
  'capPercent',
  'effectivePercent',
  'reversedShare',
  'reversedBase',
  'agentName',
  'agentCode',
] as const;

// Text cells go through the exports' one CSV cell (formula guard, quoting); our own numbers are
// written as they are: a REVERSED amount is negative and must stay a number.
const textCell = csvCell;

/** One RFC 4180 row of a statement line, CRLF-terminated. */
export function statementCsvRow(line: StatementLine): string {
  return (
    [
      line.lineId,
      line.occurredAt.toISOString(),
      line.kind,
      line.role,
      textCell(line.orderRef),
      textCell(line.policyNumber),
      textCell(line.paymentRef),
      textCell(line.refundRef),
      line.agentId ?? '',
      decimalStringFromMinor(line.base),
      line.percent,
      String(line.capped),
      decimalStringFromMinor(line.amount),
      textCell(line.currency),
      line.capPercent,
      line.effectivePercent,
      line.reversedShare === null ? '' : decimalStringFromMinor(line.reversedShare),
      line.reversedBase === null ? '' : decimalStringFromMinor(line.reversedBase),
      textCell(line.agentName),
      textCell(line.agentCode),
    ].join(',') + '\r\n'
  );
}

export const STATEMENT_CSV_HEADER = `${STATEMENT_CSV_COLUMNS.join(',')}\r\n`;
