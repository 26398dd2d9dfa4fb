import type { EntityManager } from '@mikro-orm/postgresql';
import { tooMany } from '../../kernel/errors';

/** How many unattached documents a company may hold, and how long a draft lives before the purge. */
export interface DraftQuota {
  maxDrafts: number;
  draftTtlHours: number;
}

interface DraftCountRow {
  drafts: string | number;
  oldest: Date | string | null;
}

/**
 * Refuses an upload while the company holds its quota of unattached documents (0: no quota), so
 * one partner cannot fill the document store with drafts it never attaches. The answer is a 429
 * whose Retry-After is when the oldest draft expires and frees a place. Called once before any
 * byte is stored (cheap, unlocked) and again inside the transaction that records the draft, after
 * `lockDraftQuota`, so concurrent uploads cannot all slip under the quota.
 */
export async function refuseOverDraftQuota(em: EntityManager, companyId: string, quota: DraftQuota): Promise<void> {
  if (quota.maxDrafts === 0) return;
  // em.execute runs inside the caller's transaction, if any.
  const [row] = await em.execute<DraftCountRow[]>(
    `select count(*) as drafts, min("uploaded_at") as oldest from "document" where "company_id" = ? and "traveller_id" is null and "attached_at" is null`,
    [companyId],
  );
  // count(*) without group by answers one row, whatever the table holds.
  if (row === undefined) throw new Error('the draft count answered no row');
  if (Number(row.drafts) < quota.maxDrafts) return;
  const freesAt = new Date(row.oldest ?? Date.now()).getTime() + quota.draftTtlHours * 3_600_000;
  const retryAfterSeconds = Math.max(1, Math.ceil((freesAt - Date.now()) / 1000));
  throw tooMany(
    `Too many unattached documents (at most ${quota.maxDrafts}): register travellers with them, or retry once older drafts expire`,
    retryAfterSeconds,
  );
}

/** Serialises the quota check of one company's uploads until the transaction ends (an advisory lock, no row lock). */
export async function lockDraftQuota(tx: EntityManager, companyId: string): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`draft-quota:${companyId}`]);
}
