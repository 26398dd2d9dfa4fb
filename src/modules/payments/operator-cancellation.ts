import type { EntityManager } from '@mikro-orm/postgresql';
import { cancelOrderAsOperator, type CancellationView } from '../orders';
import type { PaymentDeps } from './payment-deps';
import { cancellationPayments } from './cancellation-port';

/**
 * `ops order cancel [--note]`: the orders module's one cancellation, as the operator asks it
 * (without a note only an unpaid order; with one a paid order too, with its refund), given what
 * it needs of payments.
 */
export function cancelOrder(
  em: EntityManager,
  identifier: string,
  actor: string,
  deps: PaymentDeps,
  now?: Date,
  note?: string,
): Promise<CancellationView> {
  return cancelOrderAsOperator(em, identifier, { actor, note: note ?? null }, cancellationPayments(deps), now);
}
