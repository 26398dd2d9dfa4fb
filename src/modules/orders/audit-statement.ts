import type { StatementValue } from '../../kernel/db/prepared-statement';
import type { newAuditEntry } from './audit-log';

/**
 * The columns of audit_entry a one-statement writer outside this module inserts (the assistance
 * case's opening), in the order auditEntryValues binds them. Orders owns the table, so the SQL
 * naming its columns lives here; test/assistance/opening-owners.test.ts compares the list with
 * the entity and the real table (decision 0106).
 */
export const AUDIT_ENTRY_COLUMNS = ['id', 'at', 'actor', 'action', 'order_id', 'order_ref', 'details'] as const;

const CASTS: Record<(typeof AUDIT_ENTRY_COLUMNS)[number], string> = {
  id: '::uuid',
  at: '::timestamptz',
  actor: '',
  action: '',
  order_id: '::uuid',
  order_ref: '',
  details: '::jsonb',
};

/** `insert into audit_entry (…) select <one placeholder per column> from <source>`: one entry per row of `source`. */
export function auditEntryInsert(source: string): string {
  const placeholders = AUDIT_ENTRY_COLUMNS.map((column) => `?${CASTS[column]}`).join(', ');
  return `insert into audit_entry (${AUDIT_ENTRY_COLUMNS.join(', ')}) select ${placeholders} from ${source}`;
}

/** The values auditEntryInsert's placeholders take, in AUDIT_ENTRY_COLUMNS' order. */
export function auditEntryValues(entry: ReturnType<typeof newAuditEntry>): StatementValue[] {
  return [
    entry.id,
    entry.at.toISOString(),
    entry.actor,
    entry.action,
    entry.order,
    entry.orderRef,
    JSON.stringify(entry.details),
  ];
}
