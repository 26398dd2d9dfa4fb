import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * An IP literal (already known to be one, by node's isIP: ipaddr.js alone would also read 127.1 or
 * 0x7f.0.0.1) as ipaddr.js's address. IPv6 is written first as the URL parser writes it (`::808:808`
 * for `::8.8.8.8`): ipaddr.js reads the IPv4-compatible `::a.b.c.d` as the IPv4-mapped
 * `::ffff:a.b.c.d`, another address, which a public IPv4 address would make public.
 */
export function parseIpLiteral(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (isIP(address) === 4) return ipaddr.IPv4.parse(address);
  return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
}
