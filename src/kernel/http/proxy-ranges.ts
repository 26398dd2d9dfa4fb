import ipaddr from 'ipaddr.js';
import { parseIpLiteral } from '../ip-literal';

/**
 * The address ranges a TRUST_PROXY list names, for the checks that keep it from trusting "everyone"
 * in disguise. Every range is held as IPv6: an IPv4 one as its IPv4-mapped block (::ffff:a.b.c.d),
 * which is how Express's proxy-addr compares an IPv4 client with an IPv6 entry, so `::/64` or
 * `::ffff:0:0/96` are seen to cover every IPv4 client.
 */
interface Range {
  entry: string;
  network: ipaddr.IPv6;
  prefix: number;
  /** false for the presets (loopback, linklocal, uniquelocal): fixed, well-known ranges. */
  chosen: boolean;
}

const EVERY_IPV6 = { network: ipaddr.IPv6.parse('::'), prefix: 0 };
const MAPPED_IPV4 = { network: ipaddr.IPv6.parse('::ffff:0:0'), prefix: 96 };
/** The widest range an entry may name: a /8 of IPv4 (a /104 of the mapped block), a /32 of IPv6. */
const WIDEST_MAPPED_PREFIX = 96 + 8;
const WIDEST_IPV6_PREFIX = 32;

const PRESETS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An address or address/prefix (already validated) as an IPv6 range. */
function rangeOf(entry: string, chosen: boolean): Range {
  const [address = '', prefixText] = entry.split('/');
  const parsed = parseIpLiteral(address.replace(/%.*$/, ''));
  const bits = parsed instanceof ipaddr.IPv4 ? 32 : 128;
  const prefix = (prefixText === undefined ? bits : Number(prefixText)) + (128 - bits);
  const network = parsed instanceof ipaddr.IPv4 ? parsed.toIPv4MappedAddress() : parsed;
  return { entry, network, prefix, chosen };
}

export function proxyRanges(entries: readonly string[]): Range[] {
  return entries.flatMap((entry) =>
    entry in PRESETS ? (PRESETS[entry] ?? []).map((preset) => rangeOf(preset, false)) : [rangeOf(entry, true)],
  );
}

/** Whether `inner` lies wholly within `outer`: two prefixes are either nested or disjoint. */
const within = (inner: Pick<Range, 'network' | 'prefix'>, outer: Pick<Range, 'network' | 'prefix'>): boolean =>
  inner.prefix >= outer.prefix && inner.network.match(outer.network, outer.prefix);

/** Entries wider than a /8 of IPv4 addresses or a /32 of IPv6 ones. */
export function tooWideEntries(ranges: readonly Range[]): string[] {
  const tooWide = (range: Range) =>
    range.prefix < WIDEST_IPV6_PREFIX ||
    within(MAPPED_IPV4, range) ||
    (within(range, MAPPED_IPV4) && range.prefix < WIDEST_MAPPED_PREFIX);
  return ranges.filter((range) => range.chosen && tooWide(range)).map((range) => range.entry);
}

/** The ranges no other one holds: disjoint, and together they cover what the list covers. */
function outermost(ranges: readonly Range[]): Range[] {
  return ranges.filter(
    (range, i) => !ranges.some((other, j) => j !== i && within(range, other) && (other.prefix < range.prefix || j < i)),
  );
}

/** How many addresses of `block` the ranges cover together (overlaps counted once). */
function coveredOf(ranges: readonly Range[], block: Pick<Range, 'network' | 'prefix'>): bigint {
  if (ranges.some((range) => within(block, range))) return 1n << BigInt(128 - block.prefix);
  return outermost(ranges.filter((range) => within(range, block))).reduce(
    (sum, range) => sum + (1n << BigInt(128 - range.prefix)),
    0n,
  );
}

/** 'every IPv4 address' or 'every IPv6 address' when the list, taken together, trusts any client. */
export function coveredEverything(ranges: readonly Range[]): string | undefined {
  if (coveredOf(ranges, EVERY_IPV6) === 1n << 128n) return 'every IPv6 address';
  if (coveredOf(ranges, MAPPED_IPV4) === 1n << 32n) return 'every IPv4 address';
  return undefined;
}

/**
 * The most IPv4 addresses the chosen entries may cover together: four /8s. Proxies in front of a
 * service (a load balancer, a CDN's published ranges) take far less; 255 /8s that leave one out
 * are "everyone" but the one.
 */
const MOST_IPV4_TOGETHER = 4n << 24n;

/** How many /8s of IPv4 addresses the list covers when that is more than it may, else undefined. */
export function coveredTooMuch(ranges: readonly Range[]): string | undefined {
  const covered = coveredOf(
    ranges.filter((range) => range.chosen),
    MAPPED_IPV4,
  );
  return covered > MOST_IPV4_TOGETHER
    ? `${(Number(covered) / 2 ** 24).toFixed(1)} /8s of IPv4 addresses (at most 4 together)`
    : undefined;
}
