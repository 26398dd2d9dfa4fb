import type { CancellationPayments } from '../orders';
import { refundStart } from '../refunds';
import type { PaymentDeps } from './payment-deps';
import { checkoutAnswers, openAttempts, stillOpenAttempts } from './open-attempts';

/**
 * What the orders module's cancellation needs of payments (orders cannot import payments):
 * the open checkouts and their gateways' answers ("Money is never ambiguous"), how a refund of a
 * gateway starts, the executor's kick and the fee settings. Given to orders through the request scope's services.
 */
export function cancellationPayments(deps: PaymentDeps): CancellationPayments {
  return {
    settings: {
      freeLookDays: deps.payments.freeLookDays,
      cancellationFeePercent: deps.payments.cancellationFeePercent,
    },
    openAttempts,
    checkoutAnswers: () => checkoutAnswers(deps, 'ORDER_CANCELLED'),
    stillOpenAttempts,
    refundStart: (attempt) => refundStart(deps.gateways, attempt),
    kickRefunds: () => deps.kickRefunds?.(),
    refundPorts: deps,
  };
}
