import { CompanyType } from '../../src/modules/partners/entities/company';
import { TokenCheckCache } from '../../src/modules/auth/token-check-cache';
import type { Principal } from '../../src/kernel/http/request-scope';
import { changeOf } from '../../src/modules/auth/token-check-listener';

const principal = (companyId: string, credentialId: string): Principal => ({
  companyId,
  companyType: CompanyType.TravelAgency,
  companyName: 'Test Treks',
  commissionPercent: '10.00',
  credentialId,
});

const NOW = 1_000_000;
const LATER = NOW + 60_000;

function listeningCache(maxEntries?: number): TokenCheckCache {
  const cache = new TokenCheckCache(maxEntries);
  cache.startListening();
  return cache;
}

describe('the cache of bearer checks', () => {
  it('when it is not listening for revocations, then it neither stores nor answers', () => {
    const cache = new TokenCheckCache();
    cache.set(cache.ticket(), 'h1', principal('co1', 'cr1'), LATER);
    expect(cache.get('h1', NOW)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when a check is stored, then it answers until the token expires and never after', () => {
    const cache = listeningCache();
    cache.set(cache.ticket(), 'h1', principal('co1', 'cr1'), LATER);
    expect(cache.get('h1', NOW)?.companyId).toBe('co1');
    expect(cache.get('h1', LATER)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when a change arrives while a check is in flight, then that check is not stored', () => {
    const cache = listeningCache();
    const ticket = cache.ticket();
    cache.drop({ kind: 'token', tokenHash: 'other' });
    cache.set(ticket, 'h1', principal('co1', 'cr1'), LATER);
    expect(cache.get('h1', NOW)).toBeUndefined();
  });

  it('when the listener is lost, then everything is dropped, and a check begun before it came back is not stored', () => {
    const cache = listeningCache();
    cache.set(cache.ticket(), 'h1', principal('co1', 'cr1'), LATER);
    cache.stopListening();
    expect(cache.size).toBe(0);
    const ticket = cache.ticket();
    cache.startListening();
    cache.set(ticket, 'h2', principal('co1', 'cr1'), LATER);
    expect(cache.size).toBe(0);
  });

  it('drops one token, every token of a credential, or every token of a company', () => {
    const cache = listeningCache();
    cache.set(cache.ticket(), 'a', principal('co1', 'cr1'), LATER);
    cache.set(cache.ticket(), 'b', principal('co1', 'cr1'), LATER);
    cache.set(cache.ticket(), 'c', principal('co1', 'cr2'), LATER);
    cache.set(cache.ticket(), 'd', principal('co2', 'cr3'), LATER);
    cache.drop({ kind: 'token', tokenHash: 'a' });
    expect(cache.get('a', NOW)).toBeUndefined();
    cache.drop({ kind: 'credential', id: 'cr1' });
    expect(cache.get('b', NOW)).toBeUndefined();
    expect(cache.get('c', NOW)).toBeDefined();
    cache.drop({ kind: 'company', id: 'co1' });
    expect(cache.get('c', NOW)).toBeUndefined();
    expect(cache.get('d', NOW)?.companyId).toBe('co2');
  });

  it('when full, then the oldest entry makes room', () => {
    const cache = listeningCache(2);
    for (const hash of ['a', 'b', 'c']) cache.set(cache.ticket(), hash, principal('co1', 'cr1'), LATER);
    expect(cache.size).toBe(2);
    expect(cache.get('a', NOW)).toBeUndefined();
    expect(cache.get('c', NOW)).toBeDefined();
  });

  it('reads the database triggers\' payloads, and anything else as "drop everything"', () => {
    expect(changeOf('token:abc')).toEqual({ kind: 'token', tokenHash: 'abc' });
    expect(changeOf('credential:1f0e')).toEqual({ kind: 'credential', id: '1f0e' });
    expect(changeOf('company:2a1b')).toEqual({ kind: 'company', id: '2a1b' });
    expect(changeOf('all')).toBeUndefined();
    expect(changeOf(undefined)).toBeUndefined();
  });
});
