import { createHash } from 'node:crypto';
import { escapeHtml } from '../../../../kernel/http/html';
import { formatAmount } from '../sandbox/checkout-page';
import type { Minor } from '../../../../kernel/money';
import type { EsewaForm } from './esewa-wire';

/** The one script the page runs: submit the form as soon as it is parsed. */
const AUTO_SUBMIT = "document.getElementById('esewa-form').submit();";

/**
 * The page's Content-Security-Policy: the strict one plus exactly the auto-submit script, by its
 * hash, so no injected script could run beside it.
 */
export const ESEWA_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${createHash('sha256').update(AUTO_SUBMIT, 'utf8').digest('base64')}'`,
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Our page between the pay answer and eSewa: a form of hidden, signed fields that the browser
 * posts to eSewa. Without JavaScript the customer presses the button; with it the form goes at once.
 */
export function esewaFormPage(
  action: string,
  fields: EsewaForm,
  shown: { merchantName: string; amount: Minor; currency: string },
): string {
  const inputs = Object.entries(fields)
    .map(
      ([name, value]: [string, unknown]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(String(value))}">`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Continue to eSewa</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body>
<h1>Pay with eSewa</h1>
<p>${escapeHtml(shown.merchantName)}: <strong id="amount">${escapeHtml(formatAmount(shown.amount, shown.currency))}</strong></p>
<form id="esewa-form" method="post" action="${escapeHtml(action)}">
${inputs}
<button type="submit">Continue to eSewa</button>
</form>
<script>${AUTO_SUBMIT}</script>
</body></html>`;
}
