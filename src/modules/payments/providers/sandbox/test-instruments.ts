import type { GatewayFinalStatus } from '../../rules/payment-attempt';
import { stringField } from '../../../../kernel/narrow';

/**
 * The documented test instruments of the sandbox gateways (docs/operations.md "Sandbox payments", the checkout pages). Anything else
 * is refused on the page without a decision, like a real gateway refusing an unknown card.
 */
export const TEST_CARDS = {
  '4242424242424242': { status: 'SUCCESS', reason: undefined, label: 'approved' },
  '4000000000000002': { status: 'FAILED', reason: 'CARD_DECLINED', label: 'declined' },
  '4000000000009995': { status: 'FAILED', reason: 'INSUFFICIENT_FUNDS', label: 'insufficient funds' },
} as const satisfies Record<string, { status: GatewayFinalStatus; reason?: string; label: string }>;

export const TEST_WALLETS = {
  '9800000001': { status: 'SUCCESS', reason: undefined, label: 'approved' },
  '9800000002': { status: 'FAILED', reason: 'WALLET_DECLINED', label: 'declined' },
} as const satisfies Record<string, { status: GatewayFinalStatus; reason?: string; label: string }>;

export const TEST_WALLET_PIN = '1234';

export type CheckoutDecision =
  | { decided: true; status: GatewayFinalStatus; reason?: string; instrument?: string }
  | { decided: false; problem: string };

export interface CheckoutInput {
  action?: string;
  cardNumber?: string;
  walletId?: string;
  pin?: string;
}

/** The posted checkout form (urlencoded, so every field a string when present); anything else is left out. */
export function checkoutInputOf(body: unknown): CheckoutInput {
  return {
    action: stringField(body, 'action'),
    cardNumber: stringField(body, 'cardNumber'),
    walletId: stringField(body, 'walletId'),
    pin: stringField(body, 'pin'),
  };
}

/** Looked up by what the customer typed, which is any string. */
const CARDS_BY_NUMBER = new Map(Object.entries(TEST_CARDS));
const WALLETS_BY_ID = new Map(Object.entries(TEST_WALLETS));

/** What the gateway decides for a submitted checkout form; no decision when the input is unusable. */
export function decideCheckout(gateway: 'card_gateway' | 'wallet_gateway', input: CheckoutInput): CheckoutDecision {
  if (input.action === 'cancel') return { decided: true, status: 'CANCELLED', reason: 'CANCELLED_BY_CUSTOMER' };
  if (input.action === 'decline') return { decided: true, status: 'FAILED', reason: 'DECLINED_BY_CUSTOMER' };
  if (input.action !== 'pay') return { decided: false, problem: 'Choose Pay, Decline or Cancel.' };
  if (gateway === 'card_gateway') {
    const digits = (input.cardNumber ?? '').replace(/[\s-]/g, '');
    const card = CARDS_BY_NUMBER.get(digits);
    if (!card) return { decided: false, problem: 'This card number is not a sandbox test card.' };
    return { decided: true, status: card.status, reason: card.reason, instrument: `card ending ${digits.slice(-4)}` };
  }
  const walletId = (input.walletId ?? '').replace(/\s/g, '');
  const wallet = WALLETS_BY_ID.get(walletId);
  if (!wallet) return { decided: false, problem: 'This wallet ID is not a sandbox test wallet.' };
  if (wallet.status === 'SUCCESS' && input.pin !== TEST_WALLET_PIN) return { decided: false, problem: 'Wrong PIN.' };
  return {
    decided: true,
    status: wallet.status,
    reason: wallet.reason,
    instrument: `wallet ${walletId.slice(0, 3)}*****${walletId.slice(-2)}`,
  };
}
