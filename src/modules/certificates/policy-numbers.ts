import { randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import type { DatabaseMode } from '../../kernel/db/database-mode';
import { SANDBOX_POLICY_PREFIX, formatReference, recordPolicyNumber } from '../orders';
import type { Order } from '../orders/entities/order';
import { present } from '../../kernel/narrow';
import { CHECK_CODE_ALPHABET } from './rules/certificate-version';

/**
 * A policy number: `POL-<year>-<seq>` in production; in a sandbox database `SBX-POL-<year>-<seq>`,
 * so that a number from a test system can never pass for, or be looked up as, a real policy
 * (decision record 0103). The mode is the database's (record 0093): every database that is not a
 * production one is a sandbox, whatever its PAYMENT_MODE; a database with no mode recorded yet
 * (before the first server started on it) is treated as production, never prefixed by mistake.
 */
export function policyNumberOf(mode: DatabaseMode | undefined, year: string, sequence: string): string {
  const number = formatReference('POL', year, sequence);
  return mode === 'sandbox' ? `${SANDBOX_POLICY_PREFIX}${number}` : number;
}

/**
 * Gives each of `orders` that has none its policy number (policyNumberOf: `POL-<Kathmandu year of
 * payment>-<seq>`, sandbox-prefixed in a sandbox database), drawn from the policy_number_seq
 * sequence in one round trip with the database's mode. Called inside the transaction that
 * marks the orders PAID (a captured gateway payment, or cash recorded by the operator), so a paid
 * order always has a policy number and a rolled-back payment leaves only a gap in the sequence.
 * A sequence hands out each number once, whatever the number of server processes.
 */
export async function issuePolicyNumbers(tx: EntityManager, orders: readonly Order[], paidAt: Date): Promise<void> {
  const unnumbered = orders.filter((order) => !order.policyNumber);
  if (unnumbered.length === 0) return;
  const year = kathmanduToday(paidAt).slice(0, 4);
  // tx.execute, not getConnection().execute: only the former runs inside the caller's transaction.
  const rows = await tx.execute<Array<{ seq: string; mode: DatabaseMode | null }>>(
    `select nextval('policy_number_seq')::text as seq, (select mode from database_mode) as mode from generate_series(1, ?)`,
    [unnumbered.length],
  );
  unnumbered.forEach((order, index) => {
    const row = present(rows[index], `policy number ${index + 1} of ${unnumbered.length}`);
    recordPolicyNumber(order, policyNumberOf(row.mode ?? undefined, year, row.seq), newVerificationCode());
  });
}

/**
 * A policy's check code: 6 characters of 31, about 887 million codes, drawn by a CSPRNG. With
 * the per-address lookup limit, guessing one for a known policy number takes years.
 */
function newVerificationCode(): string {
  return Array.from({ length: 6 }, () => CHECK_CODE_ALPHABET[randomInt(CHECK_CODE_ALPHABET.length)]).join('');
}
