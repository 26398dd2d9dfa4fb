import { decimalStringFromMinor, type Minor } from '../../../../kernel/money';
import { escapeHtml } from '../../../../kernel/http/html';
import type { GatewayName } from '../gateway';
import { TEST_CARDS, TEST_WALLETS, TEST_WALLET_PIN } from './test-instruments';

/** What the checkout page shows about the payment it collects. */
export interface CheckoutPageModel {
  gateway: GatewayName;
  merchantName: string;
  paymentRef: string;
  orderRefs: string[];
  groupRef?: string;
  amount: Minor;
  currency: string;
  expiresAt: Date;
}

const GATEWAY_TITLES: Record<GatewayName, string> = {
  card_gateway: 'Card Gateway (sandbox)',
  wallet_gateway: 'Wallet Gateway (sandbox)',
};

export function formatAmount(amount: Minor, currency: string): string {
  const [units = '', paisa] = decimalStringFromMinor(amount).split('.');
  return `${currency} ${units.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${paisa}`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#666}label{display:block;margin:.75rem 0 .25rem}
input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}.actions{margin-top:1rem;display:flex;gap:.5rem}
button{font-size:1rem;padding:.5rem 1rem}.problem{color:#b00020}.note{color:#666;font-size:.9rem}</style>
</head><body>${body}</body></html>`;
}

function summary(model: CheckoutPageModel): string {
  const orders = model.orderRefs.map(escapeHtml).join(', ');
  return `<dl>
<dt>Merchant</dt><dd id="merchant">${escapeHtml(model.merchantName)}</dd>
<dt>${model.orderRefs.length > 1 ? 'Orders' : 'Order'}</dt><dd id="orders">${orders}${model.groupRef ? ` (group ${escapeHtml(model.groupRef)})` : ''}</dd>
<dt>Payment</dt><dd id="payment-ref">${escapeHtml(model.paymentRef)}</dd>
<dt>Amount</dt><dd id="amount"><strong>${escapeHtml(formatAmount(model.amount, model.currency))}</strong></dd>
</dl>`;
}

/** The hosted checkout form: plain HTML, posts back to itself, works without JavaScript. */
export function checkoutFormPage(model: CheckoutPageModel, problem?: string): string {
  const fields =
    model.gateway === 'card_gateway'
      ? `<label for="cardNumber">Card number</label><input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number">
<label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp">
<label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc">
<p class="note">Test cards: ${Object.entries(TEST_CARDS)
          .map(([n, c]) => `${n.replace(/(\d{4})(?=\d)/g, '$1 ')} (${c.label})`)
          .join('; ')}.</p>`
      : `<label for="walletId">Wallet ID</label><input id="walletId" name="walletId" inputmode="numeric">
<label for="pin">PIN</label><input id="pin" name="pin" type="password" inputmode="numeric">
<p class="note">Test wallets: ${Object.entries(TEST_WALLETS)
          .map(([n, w]) => `${n} (${w.label})`)
          .join('; ')}; PIN ${TEST_WALLET_PIN}.</p>`;
  return layout(
    `Pay ${formatAmount(model.amount, model.currency)} - ${GATEWAY_TITLES[model.gateway]}`,
    `<h1>${GATEWAY_TITLES[model.gateway]}</h1>
${summary(model)}
${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="">
${fields}
<div class="actions">
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="decline">Decline</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div>
</form>
<p class="note">Sandbox: no real money moves. This page closes at ${escapeHtml(model.expiresAt.toISOString())}.</p>`,
  );
}

/** Shown instead of the form when the payment cannot be taken (any more). */
export function checkoutMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** A link with no payment behind it, or without the payment's token: the two read alike (references are guessable). */
export const UNKNOWN_PAYMENT_PAGE = checkoutMessagePage(
  'Unknown payment',
  'This checkout link does not match any payment.',
);

/** A payment replaced, expired or settled: the customer starts again at the merchant. */
export const PAYMENT_CLOSED_PAGE = checkoutMessagePage(
  'Payment no longer open',
  'This payment was replaced, expired or settled. Return to the merchant to start again.',
);
