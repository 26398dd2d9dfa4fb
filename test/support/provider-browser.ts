import { at, captured } from './elements';
import type { ApiClient, ApiResponse } from './http-client';
import { KHALTI_TEST } from '../simulators/khalti-simulator';
import { ESEWA_TEST } from '../simulators/esewa-simulator';

/**
 * A customer's browser at the live providers' (simulated) hosted pages, without JavaScript: it
 * follows the forms by hand and stops at the redirect back to us, which the test then delivers.
 */
/** `via` ebanking pays from a bank account (a bank-funded payment), wallet (the default) from the Khalti wallet. */
export type KhaltiChoice = { action: 'pay'; mobile?: string; via?: 'wallet' | 'ebanking' } | { action: 'cancel' };
export type EsewaChoice = 'pay' | 'cancel';

const hiddenInputs = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      captured(m, 1),
      unescapeHtml(captured(m, 2)),
    ]),
  );

const unescapeHtml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function redirectOf(response: Response): Promise<URL> {
  const location = response.headers.get('location');
  if (response.status !== 302 || !location)
    throw new Error(`expected a redirect back to the merchant, got ${response.status}: ${await response.text()}`);
  return new URL(location);
}

/** Khalti's hosted page: pay with a test Khalti ID (9800000005 leaves it Pending) or cancel. */
export async function khaltiCheckout(paymentUrl: string, choice: KhaltiChoice): Promise<URL> {
  const shown = await fetch(paymentUrl);
  if (shown.status !== 200) throw new Error(`Khalti page answered ${shown.status}`);
  const form: Record<string, string> =
    choice.action === 'pay'
      ? {
          action: 'pay',
          via: choice.via ?? 'wallet',
          mobile: choice.mobile ?? at(KHALTI_TEST.ids, 1, 'the Khalti test IDs'),
          mpin: KHALTI_TEST.mpin,
          otp: KHALTI_TEST.otp,
        }
      : { action: 'cancel' };
  return redirectOf(await fetch(paymentUrl, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' }));
}

/** Our page with the signed form, as a browser without JavaScript sees it. */
export async function esewaFormOf(
  paymentUrl: string,
): Promise<{ status: number; csp: string | null; html: string; action?: string; fields: Record<string, string> }> {
  const response = await fetch(paymentUrl);
  const html = await response.text();
  return {
    status: response.status,
    csp: response.headers.get('content-security-policy'),
    html,
    action: /<form id="esewa-form" method="post" action="([^"]+)"/.exec(html)?.[1],
    fields: hiddenInputs(html),
  };
}

/**
 * Our form page, then eSewa's login page: pay with a test eSewa ID (ESEWA_TEST.pendingId leaves
 * the payment PENDING and comes back to failure_url), or cancel.
 */
export async function esewaCheckout(
  paymentUrl: string,
  choice: EsewaChoice,
  esewaId = at(ESEWA_TEST.ids, 0, 'the eSewa test IDs'),
): Promise<URL> {
  const form = await esewaFormOf(paymentUrl);
  if (form.status !== 200 || !form.action) throw new Error(`our eSewa page answered ${form.status}`);
  const login = await fetch(unescapeHtml(form.action), { method: 'POST', body: new URLSearchParams(form.fields) });
  const session = /name="session" value="([^"]+)"/.exec(await login.text())?.[1];
  if (login.status !== 200 || !session) throw new Error(`eSewa refused the form: ${login.status}`);
  const confirm = new URL('/api/epay/main/v2/form/confirm', form.action);
  const body: Record<string, string> =
    choice === 'pay'
      ? {
          session,
          action: 'pay',
          esewaId,
          password: ESEWA_TEST.password,
          token: ESEWA_TEST.token,
        }
      : { session, action: 'cancel' };
  return redirectOf(await fetch(confirm, { method: 'POST', body: new URLSearchParams(body), redirect: 'manual' }));
}

/** Delivers a provider's return to us as the browser would; the answer is checked against the spec. */
export function deliverReturn(client: ApiClient, returnUrl: URL): Promise<ApiResponse> {
  return client.op('handleProviderReturn', 'GET', returnUrl.pathname, undefined, {
    query: Object.fromEntries(returnUrl.searchParams.entries()),
    direct: true,
  });
}
