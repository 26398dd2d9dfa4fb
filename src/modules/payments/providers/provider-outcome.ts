import type { Logger } from '../../../kernel/logging/logger';
import { ProviderUnavailableError, type GatewayLookup, type GatewayReport, type PaymentAtGateway } from './gateway';
import type { ProviderReversalKind } from '../rules/payment-attempt';

/** What a provider's status answer means for us, read from its wire format (khalti-wire, esewa-wire). */
export type ProviderOutcome =
  | { kind: 'FINAL'; report: GatewayReport; reversal?: ProviderReversalKind }
  /** Not decided; `warn` for states an operator must look at (partial refunds, ambiguous). */
  | { kind: 'OPEN'; status: string; warn: boolean; reversal?: ProviderReversalKind }
  | { kind: 'UNREADABLE'; why: string };

/** A provider's final word as a report about `payment`. Khalti and eSewa settle in NPR only. */
export function finalOutcome(
  payment: PaymentAtGateway,
  word: Pick<GatewayReport, 'status' | 'reason'> & { reversal?: ProviderReversalKind },
  amount: number,
  transactionId: string,
  now: Date,
): ProviderOutcome {
  return {
    kind: 'FINAL',
    report: {
      paymentRef: payment.paymentRef,
      status: word.status,
      reason: word.reason,
      amount,
      currency: 'NPR',
      gatewayTransactionId: transactionId,
      issuedAt: now,
    },
    ...(word.reversal && { reversal: word.reversal }),
  };
}

/** The port's answer for an outcome: an unreadable answer is the provider's failure (502), an open one undecided. */
export function lookupFromOutcome(
  provider: string,
  outcome: ProviderOutcome,
  payment: PaymentAtGateway,
  logger: Logger,
): GatewayLookup {
  if (outcome.kind === 'UNREADABLE') throw new ProviderUnavailableError(provider, 'BAD_ANSWER', outcome.why);
  if (outcome.kind === 'OPEN') {
    if (outcome.warn)
      logger.warn(
        { provider, paymentRef: payment.paymentRef, status: outcome.status },
        'payment provider reports a state an operator must look at',
      );
    return outcome.reversal ? { decided: false, reversal: outcome.reversal } : { decided: false };
  }
  // A word the provider gave us server to server: asking again is not a replay.
  return {
    decided: true,
    report: outcome.report,
    confirmed: true,
    ...(outcome.reversal && { reversal: outcome.reversal }),
  };
}
