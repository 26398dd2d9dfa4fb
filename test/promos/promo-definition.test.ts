import { parsePromoDefinition } from '../../src/modules/promos/rules/promo-definition';

const company = '8e4c6f5d-0a7b-4c9d-9ecf-3a4b5c6d7e8f';

describe('promo code definition (operator CLI)', () => {
  it('normalises the code to upper case, the percent to two decimals and an amount to minor units', () => {
    expect(parsePromoDefinition({ code: ' summit10 ', ownerCompany: company, percent: '7.5' })).toEqual({
      ok: true,
      value: {
        code: 'SUMMIT10',
        owner: { kind: 'COMPANY', id: company },
        discount: { percent: '7.50' },
        validFrom: null,
        validTo: null,
        usageLimit: null,
      },
    });
    const fixed = parsePromoDefinition({
      code: 'PEMBA-300',
      ownerAgent: company,
      amount: '300.5',
      validFrom: '2026-10-01',
      validTo: '2026-10-31',
      limit: '5',
    });
    expect(fixed).toMatchObject({
      ok: true,
      value: { owner: { kind: 'AGENT' }, discount: { amount: 30_050 }, usageLimit: 5 },
    });
  });

  it('demands exactly one owner and exactly one kind of discount', () => {
    const result = parsePromoDefinition({
      code: 'X',
      ownerCompany: company,
      ownerAgent: company,
      percent: '5',
      amount: '5',
    });
    expect(result).toEqual({
      ok: false,
      problems: ['give exactly one of --owner-company and --owner-agent', 'give exactly one of --percent and --amount'],
    });
    expect(parsePromoDefinition({ code: 'X' })).toMatchObject({
      ok: false,
      problems: expect.arrayContaining(['give exactly one of --owner-company and --owner-agent']),
    });
  });

  it.each([
    [{ code: 'has space', ownerCompany: company, percent: '5' }, '--code'],
    [{ code: '', ownerCompany: company, percent: '5' }, '--code'],
    [{ code: 'P', ownerCompany: company, percent: '0' }, '--percent'],
    [{ code: 'P', ownerCompany: company, percent: '100.01' }, '--percent'],
    [{ code: 'P', ownerCompany: company, amount: '-3' }, '--amount'],
    [{ code: 'P', ownerCompany: company, amount: '0' }, '--amount'],
    [{ code: 'P', ownerCompany: company, percent: '5', validFrom: '2026-02-30' }, '--valid-from'],
    [
      { code: 'P', ownerCompany: company, percent: '5', validFrom: '2026-12-01', validTo: '2026-11-01' },
      '--valid-from must not be after',
    ],
    [{ code: 'P', ownerCompany: company, percent: '5', limit: '0' }, '--limit'],
    [{ code: 'P', ownerCompany: company, percent: '5', limit: '2.5' }, '--limit'],
  ])('rejects %j naming %s', (input, flag) => {
    const result = parsePromoDefinition(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.join(' ')).toContain(flag);
  });
});
