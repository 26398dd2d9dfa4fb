import { BlockList, isIP } from 'node:net';
import { forbiddenUrlPartProblem, parseAbsoluteUrl } from '../../../kernel/partner-url';

/**
 * Where a partner's webhook endpoint may point. Outside sandbox it must be HTTPS and every
 * address its host resolves to must be public: a loopback, private, link-local (cloud metadata),
 * carrier-grade NAT, multicast or unspecified address would let a partner make our servers call
 * into our own network (SSRF).
 */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is one a webhook may be sent to outside sandbox. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
    const [, mapped] = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address) ?? [];
    if (mapped !== undefined) return !internal.check(mapped, 'ipv4');
    return !internal.check(address, 'ipv6');
  }
  return !internal.check(address, 'ipv4');
}

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
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point to a loopback, private or link-local address';
  return undefined;
}
