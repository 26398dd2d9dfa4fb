import { amountFromMinor } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import type { Refund } from './entities/refund';

/** How partners name the gateway a payment (and its refund) went through. */
const GATEWAY_WIRE = { card_gateway: 'CARD_GATEWAY', wallet_gateway: 'WALLET_GATEWAY', cash: 'CASH' } as const;

/** A refund as the contract shows it (cancellation answer, order detail, payment-status). */
export function refundWire(refund: Refund): Schemas['Refund'] {
  return {
    refundRef: refund.refundRef,
    amount: amountFromMinor(refund.amount),
    cancellationFee: amountFromMinor(refund.fee),
    status: refund.status,
    gateway: GATEWAY_WIRE[refund.gateway],
  };
}
