import { forbiddenUrlPartProblem, parseAbsoluteUrl } from '../../../kernel/partner-url';

/**
 * The partner's `returnUrl`: absolute, HTTPS, no credentials in it. Plain HTTP only when the
 * operator's internal test environment allows it (ALLOW_HTTP_RETURN_URL, never in production).
 * Returns the problem as a field message, or undefined when the URL is acceptable.
 */
export function returnUrlProblem(value: string, allowHttp: boolean): string | undefined {
  const url = parseAbsoluteUrl(value);
  if (!url) return 'must be an absolute https URL';
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return 'must be an https URL';
  if (!url.hostname) return 'must be an absolute https URL';
  return forbiddenUrlPartProblem(url);
}

/** `returnUrl` with `paymentRef` appended, keeping the partner's own query parameters. */
export function returnUrlWithPaymentRef(returnUrl: string, paymentRef: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('paymentRef', paymentRef);
  return url.toString();
}
