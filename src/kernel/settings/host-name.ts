import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseIpLiteral } from '../ip-literal';

/**
 * A URL's host as a comparison needs it: lower case, without IPv6 brackets and without the one
 * trailing dot of a fully qualified name (`dev.khalti.com.` reaches the same host as
 * `dev.khalti.com`, so a list of hosts must not tell them apart).
 */
export function normalisedHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/**
 * Whether a host names this machine (or every address of it): what a link handed to a partner or
 * a payment provider must never point at. The URL parser has already turned 127.1 or 0x7f.0.0.1
 * into dotted decimal.
 */
export function isLocalHost(hostname: string): boolean {
  const host = normalisedHost(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 0) return false;
  // An IPv4-mapped address (::ffff:127.0.0.1, which the URL parser writes ::ffff:7f00:1) is the IPv4 one.
  const parsed = parseIpLiteral(host);
  const address = parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  if (address instanceof ipaddr.IPv4) return address.range() === 'loopback' || address.toString() === '0.0.0.0';
  return address.range() === 'loopback' || address.range() === 'unspecified';
}
