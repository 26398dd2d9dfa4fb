import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { stringField } from '../narrow';

/**
 * The unique constraints a use case answers for, by the names the migrations gave them. PostgreSQL
 * reports the constraint a duplicate broke (`constraint` on the driver's error, which MikroORM's
 * exception copies); its message text is for people and may change with the server's locale.
 */
export const UNIQUE = {
  orderQuote: 'insurance_order_quote_id_unique',
  attemptIdempotencyKey: 'payment_attempt_company_id_idempotency_key_unique',
  attemptPaymentRef: 'payment_attempt_payment_ref_unique',
  travellerDocuments: [
    'traveller_avatar_document_id_unique',
    'traveller_passport_document_id_unique',
    'traveller_signature_document_id_unique',
    'traveller_visa_document_id_unique',
  ],
} as const;

/** Whether `error` is a duplicate refused by one of `constraints`. */
export function violatesUnique(error: unknown, constraints: readonly string[]): boolean {
  if (!(error instanceof UniqueConstraintViolationException)) return false;
  const constraint = stringField(error, 'constraint');
  return constraint !== undefined && constraints.includes(constraint);
}
