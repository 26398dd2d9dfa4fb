import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseIpLiteral } from './ip-literal';

/**
 * Which addresses are public: reachable from the internet, not this machine or its networks. A
 * loopback, private, link-local (cloud metadata), Azure's WireServer, carrier-grade NAT, multicast or unspecified
 * address, and every IPv6 form that reaches one, is internal. Webhook endpoints (SSRF) and
 * production's PUBLIC_BASE_URL are held to it.
 */
const INTERNAL_IPV4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  // Azure's WireServer (host agent, instance metadata): a public-looking address every Azure VM reaches.
  '168.63.129.16/32',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const INTERNAL_IPV6 = [
  // IPv4-compatible (deprecated by RFC 4291; `::` and `::1` are in it): no public host is reached that way.
  '::/96',
  'fc00::/7',
  'fe80::/10',
  // Site-local, deprecated by RFC 3879 but still routed inside some networks.
  'fec0::/10',
  'ff00::/8',
  // Local-use NAT64 (RFC 8215): the translator and what it reaches are the operator's own.
  '64:ff9b:1::/48',
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** The IPv4 address in four bytes of an IPv6 one, inverted for Teredo's client (RFC 4380 obscures it). */
function ipv4At(bytes: number[], offset: number, inverted = false): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => (inverted ? 255 - byte : byte)));
}

/** The IPv6 forms that let an IPv6 address reach an IPv4 host, by where the IPv4 address sits in it. */
const CARRIERS: Record<'tail' | 'sixToFour' | 'teredo', [ipaddr.IPv6, number][]> = {
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
  tail: ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr)),
  sixToFour: [ipaddr.IPv6.parseCIDR('2002::/16')],
  teredo: [ipaddr.IPv6.parseCIDR('2001::/32')],
};

/**
 * The IPv4 addresses an IPv6 address reaches: the last four bytes of the tail forms, bytes 2 to 5
 * of 6to4 (2002:AABB:CCDD::), and both ends of Teredo (2001:0::, the server's address in the
 * clear, the client's inverted).
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = address.toByteArray();
  switch (ipaddr.subnetMatch(address, CARRIERS, 'none')) {
    case 'tail':
      return [ipv4At(bytes, 12)];
    case 'sixToFour':
      return [ipv4At(bytes, 2)];
    case 'teredo':
      return [ipv4At(bytes, 4), ipv4At(bytes, 12, true)];
    default:
      return [];
  }
}

const internalIpv4 = (address: ipaddr.IPv4) => INTERNAL_IPV4.some((range) => address.match(range));

/** Whether an address is public (an IP literal; a name is never an address). */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  // A zone index (fe80::1%eth0) only ever names a link-local address.
  if (address.includes('%')) return false;
  const parsed = parseIpLiteral(address);
  if (parsed instanceof ipaddr.IPv4) return !internalIpv4(parsed);
  if (INTERNAL_IPV6.some((range) => parsed.match(range))) return false;
  // An IPv4 address carried inside IPv6 is judged as the IPv4 address it reaches.
  return !embeddedIpv4(parsed).some(internalIpv4);
}
