import { BlockList, isIP } from 'node:net';

/**
 * Which addresses are public: reachable from the internet, not this machine or its networks. A
 * loopback, private, link-local (cloud metadata), carrier-grade NAT, multicast or unspecified
 * address, and every IPv6 form that reaches one, is internal. Webhook endpoints (SSRF) and
 * production's PUBLIC_BASE_URL are held to it.
 */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // IPv4-compatible (deprecated by RFC 4291; `::` and `::1` are in it): no public host is reached that way.
  ['::', 96],
  ['fc00::', 7], ['fe80::', 10],
  // Site-local, deprecated by RFC 3879 but still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
  // Local-use NAT64 (RFC 8215): the translator and what it reaches are the operator's own.
  ['64:ff9b:1::', 48],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (already known to be one), `::` and a dotted tail expanded. */
function ipv6Groups(address: string): number[] {
  // The URL parser writes every IPv6 form the same way (lower case, hex tail, `::` compression).
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that let an IPv6 address reach an IPv4
 * host: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d),
 * 6to4 (2002:AABB:CCDD::) and Teredo (2001:0::, the server's address in the clear, the client's
 * inverted). Teredo yields both.
 */
function embeddedIpv4(groups: number[]): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(5) && g5 === 0xffff) return [dotted(g6, g7)];
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return [dotted(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [dotted(g6, g7)];
  if (g0 === 0x2002) return [dotted(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [dotted(g2, g3), dotted(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** Whether an address is public (an IP literal; a name is never an address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !internal.check(address, 'ipv4');
  // A zone index (fe80::1%eth0) only ever names a link-local address.
  if (address.includes('%')) return false;
  const groups = ipv6Groups(address);
  if (internal.check(address, 'ipv6')) return false;
  // An IPv4 address carried inside IPv6 is judged as the IPv4 address it reaches.
  return embeddedIpv4(groups).every((ipv4) => !internal.check(ipv4, 'ipv4'));
}

