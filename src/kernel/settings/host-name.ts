import { isIP } from 'node:net';

/**
 * A URL's host as a comparison needs it: lower case, without IPv6 brackets and without the one
 * trailing dot of a fully qualified name (`dev.khalti.com.` reaches the same host as
 * `dev.khalti.com`, so a list of hosts must not tell them apart).
 */
export function normalisedHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/**
 * Whether a host names this machine (or every address of it): what a link handed to a partner or
 * a payment provider must never point at. The URL parser has already turned 127.1 or 0x7f.0.0.1
 * into dotted decimal.
 */
export function isLocalHost(hostname: string): boolean {
  const host = normalisedHost(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  if (isIP(host) === 6) {
    if (host === '::1' || host === '::') return true;
    // An IPv4-mapped address (::ffff:127.0.0.1, which the parser writes ::ffff:7f00:1) is the IPv4 one.
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (mapped?.[1] !== undefined) {
      const high = parseInt(mapped[1], 16);
      return high >> 8 === 127 || (high === 0 && mapped[2] === '0');
    }
  }
  return false;
}
