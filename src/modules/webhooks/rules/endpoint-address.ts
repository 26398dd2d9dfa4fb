import { isIP } from 'node:net';
import { isPublicAddress } from '../../../kernel/public-address';
import { forbiddenUrlPartProblem, parseAbsoluteUrl } from '../../../kernel/partner-url';

/**
 * Where a partner's webhook endpoint may point. Outside sandbox it must be HTTPS and every
 * address its host resolves to must be public (kernel/public-address): an internal one would let
 * a partner make our servers call into our own network (SSRF).
 */
export { isPublicAddress };

/** Why a URL cannot be a webhook endpoint (before any DNS lookup), or undefined when its form is fine. */
export function endpointUrlProblem(raw: string, allowLocal: boolean): string | undefined {
  const url = parseAbsoluteUrl(raw);
  if (!url) return 'is not an absolute URL';
  const forbiddenPart = forbiddenUrlPartProblem(url);
  if (forbiddenPart) return forbiddenPart;
  if (allowLocal) return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'must be an http(s) URL';
  if (url.protocol !== 'https:') return 'must be HTTPS';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isPublicAddress(host)) return 'must not point to a loopback, private or link-local address';
  if (host === 'localhost' || host.endsWith('.localhost'))
    return 'must not point to a loopback, private or link-local address';
  return undefined;
}
