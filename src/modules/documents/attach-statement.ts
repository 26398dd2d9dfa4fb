import type { StatementValue } from '../../kernel/db/prepared-statement';

/**
 * `update document set attached_at = … where id = any(…) returning id`: marks documents attached
 * inside a one-statement writer outside this module (the claim's filing, decision record 0107),
 * which has checked them under their row locks in the same transaction. Documents owns the table,
 * so the SQL naming its columns lives here (decision record 0106); marked, a draft is safe from
 * the draft purge.
 */
export function documentsAttachedUpdate(): string {
  return `update document set attached_at = ?::timestamptz where id = any(?::uuid[]) returning id`;
}

/** The values documentsAttachedUpdate's placeholders take. */
export function documentsAttachedValues(documentIds: readonly string[], at: Date): StatementValue[] {
  return [at.toISOString(), `{${documentIds.join(',')}}`];
}

/**
 * `select … from document where id = any(…) and company_id = … for update`: the named documents of
 * a company, locked for a writer that attaches them later in its transaction, with what attaching
 * judges (`taken`: a traveller took it or something attached it already).
 */
export function companyDocumentsLocked(): string {
  return `select id::text, document_type, (traveller_id is not null or attached_at is not null) as taken
    from document where id = any(?::uuid[]) and company_id = ?::uuid for update`;
}

/** The values companyDocumentsLocked's placeholders take. */
export function companyDocumentsValues(documentIds: readonly string[], companyId: string): StatementValue[] {
  return [`{${documentIds.join(',')}}`, companyId];
}
