import type { EntityManager } from '@mikro-orm/postgresql';
import { cancelByOperator, type CancellationView } from '../modules/orders';
import { cancellationPayments, type PaymentDeps } from '../modules/payments';
import { releasePromoSlots } from '../modules/promos';

/**
 * `ops order cancel [--note]`: the orders module's one cancellation, as the operator asks it from
 * the command line (without a note only an unpaid order; with one a paid order too, with its
 * refund), given what it needs of payments and of promos. Composed here, as server.ts composes the
 * partner's: payments cannot import promos, which builds on it (decision record 0110).
 */
export function cancelFromCommandLine(
  em: EntityManager,
  identifier: string,
  actor: string,
  deps: PaymentDeps,
  now?: Date,
  note?: string,
): Promise<CancellationView> {
  return cancelByOperator(
    em,
    identifier,
    { actor, note: note ?? null },
    { payments: cancellationPayments(deps), releasePromoSlots },
    now,
  );
}
