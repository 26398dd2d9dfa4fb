import { ConfigError, loadConfig } from '../../src/config';
import { isPublicAddress } from '../../src/kernel/public-address';
import { isLocalHost } from '../../src/kernel/settings/host-name';
import { liveProvidersEnv } from '../support/live-providers-env';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

/** What the checks of addresses answer, now that ipaddr.js does their arithmetic (issue 41). */
describe('IP literals as the address checks read them', () => {
  it('reads an IPv4-mapped IPv6 address as the IPv4 address it is, in every spelling', () => {
    for (const mapped of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:127.0.0.1',
      '0:0:0:0:0:ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '::ffff:0.0.0.0',
    ]) {
      expect({ mapped, public: isPublicAddress(mapped) }).toEqual({ mapped, public: false });
    }
    expect(isPublicAddress('0:0:0:0:0:ffff:8.8.8.8')).toBe(true);
    expect(
      ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:127.8.9.10]', '[::ffff:0.0.0.0]'].map(isLocalHost),
    ).toEqual([true, true, true, true]);
    expect(['[::ffff:8.8.8.8]', '[::ffff:0.0.0.1]'].map(isLocalHost)).toEqual([false, false]);
  });

  it('reads ::127.0.0.1 as the IPv4-compatible address it is (not as ::ffff:127.0.0.1, as ipaddr.js would): internal, and ::8.8.8.8 with it', () => {
    expect(isPublicAddress('::127.0.0.1')).toBe(false);
    expect(isPublicAddress('::8.8.8.8')).toBe(false);
    expect(isPublicAddress('::808:808')).toBe(false);
    // Not this machine by name: the internal-address rule is the one that refuses it.
    expect(isLocalHost('[::127.0.0.1]')).toBe(false);
    expect(
      problemsOf({ NODE_ENV: 'production', ...liveProvidersEnv(), PUBLIC_BASE_URL: 'https://[::127.0.0.1]' }),
    ).toEqual([
      'PUBLIC_BASE_URL points at an internal address ([::7f00:1]); in production set the https address partners and payment providers reach the service at, e.g. https://api.example.com',
    ]);
    expect(
      problemsOf({ NODE_ENV: 'production', ...liveProvidersEnv(), PUBLIC_BASE_URL: 'https://[::ffff:127.0.0.1]' }),
    ).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL points at this machine \(\[::ffff:7f00:1\]\)/)]);
  });

  it('counts the addresses of a TRUST_PROXY list once, however its CIDR entries overlap or are spelt (IPv4 or IPv4-mapped)', () => {
    // Four /8s, each named twice (as IPv4, as a mapped /104, as halves): four, within the cap.
    const fourEights = '1.0.0.0/8,::ffff:1.0.0.0/104,2.0.0.0/9,2.128.0.0/9,2.0.0.0/8,3.0.0.0/8,4.1.2.3/8,4.0.0.0/16';
    expect(loadConfig({ TRUST_PROXY: fourEights }).trustProxy).toHaveLength(8);
    expect(problemsOf({ TRUST_PROXY: `${fourEights},::ffff:5.0.0.0/105` })).toEqual([
      'TRUST_PROXY must name proxies, not everyone: together its entries cover 4.5 /8s of IPv4 addresses (at most 4 together)',
    ]);
    // The presets are fixed ranges and do not count towards the cap.
    expect(loadConfig({ TRUST_PROXY: `${fourEights},uniquelocal,loopback,linklocal` }).trustProxy).toHaveLength(11);
  });

  it('measures a TRUST_PROXY entry by the block it names: a /8 of IPv4 is a /104 of the mapped block, and an IPv6 range holding that block holds every IPv4 client', () => {
    expect(loadConfig({ TRUST_PROXY: '::ffff:10.0.0.0/104' }).trustProxy).toEqual(['::ffff:10.0.0.0/104']);
    for (const value of ['::ffff:10.0.0.0/103', '::ffff:0:0/95', '::/80', '2001:db8::/31']) {
      expect({ value, problems: problemsOf({ TRUST_PROXY: value }) }).toEqual({
        value,
        problems: [
          `TRUST_PROXY must name proxies, not whole networks: ${value} is wider than a /8 of IPv4 or a /32 of IPv6 addresses`,
        ],
      });
    }
    expect(loadConfig({ TRUST_PROXY: '2001:db8::/32,fe80::1%eth0,::1' }).trustProxy).toEqual([
      '2001:db8::/32',
      'fe80::1%eth0',
      '::1',
    ]);
  });
});

describe('TRUST_PROXY entries Express cannot read', () => {
  it("refuses in one line an IPv6 entry with an IPv4 tail that Express's proxy-addr does not parse, instead of a TypeError at start", () => {
    for (const value of ['::1.2.3.4', '64:ff9b::1.2.3.4/120']) {
      expect({ value, problems: problemsOf({ TRUST_PROXY: value }) }).toEqual({
        value,
        problems: [expect.stringMatching(/^TRUST_PROXY must be false, a number of proxies/)],
      });
    }
    expect(loadConfig({ TRUST_PROXY: '::ffff:1.2.3.4, ::ffff:0:1.2.3.4' }).trustProxy).toEqual([
      '::ffff:1.2.3.4',
      '::ffff:0:1.2.3.4',
    ]);
  });
});
