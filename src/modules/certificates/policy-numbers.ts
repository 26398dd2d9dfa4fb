import { randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { formatReference } from '../orders';
import type { Order } from '../orders/entities/order';
import { present } from '../../kernel/narrow';
import { CHECK_CODE_ALPHABET } from './rules/certificate-version';

/**
 * Gives each of `orders` that has none its policy number, `POL-<Kathmandu year of payment>-<seq>`,
 * drawn from the policy_number_seq sequence in one round trip. Called inside the transaction that
 * marks the orders PAID (a captured gateway payment, or cash recorded by the operator), so a paid
 * order always has a policy number and a rolled-back payment leaves only a gap in the sequence.
 * A sequence hands out each number once, whatever the number of server processes.
 */
export async function issuePolicyNumbers(tx: EntityManager, orders: readonly Order[], paidAt: Date): Promise<void> {
  const unnumbered = orders.filter((order) => !order.policyNumber);
  if (unnumbered.length === 0) return;
  const year = kathmanduToday(paidAt).slice(0, 4);
  // tx.execute, not getConnection().execute: only the former runs inside the caller's transaction.
  const rows = await tx.execute<Array<{ seq: string }>>(
    `select nextval('policy_number_seq')::text as seq from generate_series(1, ?)`,
    [unnumbered.length],
  );
  unnumbered.forEach((order, index) => {
    order.policyNumber = formatReference(
      'POL',
      year,
      present(rows[index], `policy number ${index + 1} of ${unnumbered.length}`).seq,
    );
    order.verificationCode = newVerificationCode();
  });
}

/**
 * A policy's check code: 6 characters of 31, about 887 million codes, drawn by a CSPRNG. With
 * the per-address lookup limit, guessing one for a known policy number takes years.
 */
function newVerificationCode(): string {
  return Array.from({ length: 6 }, () => CHECK_CODE_ALPHABET[randomInt(CHECK_CODE_ALPHABET.length)]).join('');
}
