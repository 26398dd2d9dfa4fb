import type { EntityManager } from '@mikro-orm/postgresql';
import type { CheckoutView } from '../../checkout-view';
import type { GatewayFinalStatus } from '../../rules/payment-attempt';
import { signCallback } from '../callback-signature';
import type { SandboxGatewayPayment } from './entities/sandbox-gateway-payment';
import { reportOf, type SandboxGateway } from './sandbox-gateway';
import { findSandboxDecision, isFinalDecision, recordSandboxDecision } from './sandbox-ledger';

/** What the sandbox gateway's customer did: the gateway's status, why, and with what. */
export interface CustomerChoice {
  status: GatewayFinalStatus;
  reason?: string;
  instrument?: string;
  /** The sandbox helper deciding a payment it left PENDING earlier (the checkout page never does). */
  settlesPending?: boolean;
}

/** The gateway's one decision, and the callback it signed when this call made it. */
export type SandboxDecided =
  | { decided: true; decision: SandboxGatewayPayment; callback: { payload: string; signature: string } }
  | { decided: false; decision: SandboxGatewayPayment | null };

/**
 * The sandbox gateway decides a payment and signs its word for the merchant: what its checkout
 * page does on a submit and what the sandbox helper does for a partner's test, so both reach the
 * merchant through the same signed callback. Another tab, a double click or the merchant's void
 * may have decided first: then nothing is signed and the standing decision is returned.
 */
export async function decideAtSandboxGateway(
  em: EntityManager,
  gateway: SandboxGateway,
  view: CheckoutView,
  choice: CustomerChoice,
): Promise<SandboxDecided> {
  const decided = await recordSandboxDecision(em, {
    paymentRef: view.paymentRef,
    gateway: gateway.name,
    status: choice.status,
    reason: choice.reason,
    amount: view.amount,
    currency: view.currency,
    instrument: choice.instrument,
    settlesPending: choice.settlesPending,
  });
  const decision = await findSandboxDecision(em.fork(), view.paymentRef);
  if (!decided || !isFinalDecision(decision)) return { decided: false, decision };
  return {
    decided: true,
    decision,
    callback: signCallback({ ...reportOf(decision), issuedAt: new Date() }, gateway.secretForSigning()),
  };
}
