import { isIP } from 'node:net';

/**
 * The address ranges a TRUST_PROXY list names, for the checks that keep it from trusting "everyone"
 * in disguise. Every range is held as IPv6: an IPv4 one as its IPv4-mapped block (::ffff:a.b.c.d),
 * which is how Express's proxy-addr compares an IPv4 client with an IPv6 entry, so `::/64` or
 * `::ffff:0:0/96` are seen to cover every IPv4 client.
 */
interface Range {
  entry: string;
  start: bigint;
  end: bigint;
  /** false for the presets (loopback, linklocal, uniquelocal): fixed, well-known ranges. */
  chosen: boolean;
}

const ALL_IPV6 = { start: 0n, end: (1n << 128n) - 1n };
const MAPPED_IPV4 = { start: 0xffffn << 32n, end: (0xffffn << 32n) | 0xffffffffn };
/** The widest range an entry may name: a /8 of IPv4, a /32 of IPv6. */
const WIDEST_IPV4 = 1n << 24n;
const WIDEST_IPV6_PREFIX = 32;

const PRESETS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6Value(address: string): bigint {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail !== undefined) {
    const value = ipv4Value(tail);
    text = `${text.slice(0, -tail.length)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const before = head === '' ? [] : head.split(':');
  const after = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = rest === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** An address or address/prefix (already validated) as an IPv6 range. */
function rangeOf(entry: string, chosen: boolean): Range {
  const [address = '', prefixText] = entry.split('/');
  const ipv4 = isIP(address) === 4;
  const bits = ipv4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  const base = ipv4 ? MAPPED_IPV4.start | ipv4Value(address) : ipv6Value(address);
  const size = 1n << BigInt(bits - prefix);
  const start = base - (base % size);
  return { entry, start, end: start + size - 1n, chosen };
}

export function proxyRanges(entries: readonly string[]): Range[] {
  return entries.flatMap((entry) => (entry in PRESETS ? (PRESETS[entry] ?? []).map((preset) => rangeOf(preset, false)) : [rangeOf(entry, true)]));
}

const overlap = (range: Range, block: { start: bigint; end: bigint }): bigint => {
  const start = range.start > block.start ? range.start : block.start;
  const end = range.end < block.end ? range.end : block.end;
  return end >= start ? end - start + 1n : 0n;
};

/** Entries wider than a /8 of IPv4 addresses or a /32 of IPv6 ones. */
export function tooWideEntries(ranges: readonly Range[]): string[] {
  return ranges
    .filter((range) => range.chosen)
    .filter((range) => overlap(range, MAPPED_IPV4) > WIDEST_IPV4 || range.end - range.start + 1n > 1n << BigInt(128 - WIDEST_IPV6_PREFIX))
    .map((range) => range.entry);
}

/** Whether the ranges together cover the whole of a block. */
function covers(ranges: readonly Range[], block: { start: bigint; end: bigint }): boolean {
  let next = block.start;
  for (const range of [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (range.start > next) break;
    if (range.end >= next) next = range.end + 1n;
    if (next > block.end) return true;
  }
  return false;
}

/** 'every IPv4 address' or 'every IPv6 address' when the list, taken together, trusts any client. */
export function coveredEverything(ranges: readonly Range[]): string | undefined {
  if (covers(ranges, ALL_IPV6)) return 'every IPv6 address';
  if (covers(ranges, MAPPED_IPV4)) return 'every IPv4 address';
  return undefined;
}

/**
 * The most IPv4 addresses the chosen entries may cover together: four /8s. Proxies in front of a
 * service (a load balancer, a CDN's published ranges) take far less; 255 /8s that leave one out
 * are "everyone" but the one.
 */
const MOST_IPV4_TOGETHER = 4n << 24n;

/** How many IPv4 addresses the chosen entries cover together (overlaps counted once). */
function ipv4Covered(ranges: readonly Range[]): bigint {
  let covered = 0n;
  let next = MAPPED_IPV4.start;
  const chosen = ranges.filter((range) => range.chosen && overlap(range, MAPPED_IPV4) > 0n);
  for (const range of chosen.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    const start = range.start > next ? range.start : next;
    const end = range.end < MAPPED_IPV4.end ? range.end : MAPPED_IPV4.end;
    if (end >= start) covered += end - start + 1n;
    if (end + 1n > next) next = end + 1n;
  }
  return covered;
}

/** How many /8s of IPv4 addresses the list covers when that is more than it may, else undefined. */
export function coveredTooMuch(ranges: readonly Range[]): string | undefined {
  const covered = ipv4Covered(ranges);
  return covered > MOST_IPV4_TOGETHER ? `${(Number(covered) / 2 ** 24).toFixed(1)} /8s of IPv4 addresses (at most 4 together)` : undefined;
}
