import {
  EMPTY_SLOTS,
  bindingAllows,
  clearSlots,
  codeIsCurrent,
  decideApply,
  fillSlot,
  normalizePromoCode,
  projectTotals,
  remainingUses,
  type CodeUsability,
  type PromoBinding,
  type PromoSlots,
  type SlotCode,
} from '../../src/modules/promos/rules/promo-slots';

const usable: CodeUsability = {
  active: true,
  ownerActive: true,
  validFrom: null,
  validTo: null,
  usageLimit: null,
  usedCount: 0,
};

const companyCode = (id: string, ownerId: string, percent = 10): SlotCode & CodeUsability => ({
  ...usable,
  id,
  code: id.toUpperCase(),
  slot: 'COMPANY',
  ownerId,
  ownerName: `Company ${ownerId}`,
  discount: { percent },
});
const agentCode = (id: string, ownerId: string, amount = 50_000): SlotCode & CodeUsability => ({
  ...usable,
  id,
  code: id.toUpperCase(),
  slot: 'AGENT',
  ownerId,
  ownerName: `Agent ${ownerId}`,
  discount: { amount },
});

const A1 = companyCode('a1', 'A');
const A2 = companyCode('a2', 'A', 5);
const B1 = companyCode('b1', 'B');
const X1 = agentCode('x1', 'X');
const X2 = agentCode('x2', 'X', 20_000);
const Y1 = agentCode('y1', 'Y');

const bound = (type: 'COMPANY' | 'AGENT', ownerId: string): PromoBinding => ({ type, ownerId, ownerName: ownerId });
const TODAY = '2026-10-01';
const pending = (slots: PromoSlots) => ({ payable: true, slots });

describe('promo slots: applying a code', () => {
  it('fills an empty slot and binds the unbound order to the code owner', () => {
    const change = fillSlot(EMPTY_SLOTS, A1);
    expect(change.slots).toEqual({
      company: A1,
      agent: null,
      binding: { type: 'COMPANY', ownerId: 'A', ownerName: 'Company A' },
    });
    expect(change).toMatchObject({ changed: true, reserve: 'a1', release: [] });
  });

  it('replaces an occupied slot of the same type, releasing the old code, and leaves the other slot untouched', () => {
    const start = fillSlot(fillSlot(EMPTY_SLOTS, A1).slots, X1).slots;
    const change = fillSlot(start, A2);
    expect(change.slots.company).toBe(A2);
    expect(change.slots.agent).toBe(X1);
    expect(change.slots.binding).toEqual(start.binding);
    expect(change).toMatchObject({ changed: true, reserve: 'a2', release: ['a1'] });
  });

  it('fills the other slot without rebinding an order that is already bound', () => {
    const change = fillSlot(fillSlot(EMPTY_SLOTS, A1).slots, X1);
    expect(change.slots.binding.type).toBe('COMPANY');
    expect(change.slots).toMatchObject({ company: A1, agent: X1 });
  });

  it('takes no new use when the slot already holds the code', () => {
    const start = fillSlot(EMPTY_SLOTS, X1).slots;
    expect(fillSlot(start, X1)).toMatchObject({ changed: false, reserve: null, release: [] });
  });
});

describe('promo slots: removing codes', () => {
  const both = fillSlot(fillSlot(EMPTY_SLOTS, A1).slots, X1).slots;

  it('with a code, clears the slot it occupies, releases it and rolls back the binding it created', () => {
    const change = clearSlots(both, 'a1');
    expect(change.slots).toEqual({
      company: null,
      agent: X1,
      binding: { type: 'NONE', ownerId: null, ownerName: null },
    });
    expect(change).toMatchObject({ changed: true, release: ['a1'] });
  });

  it('keeps the binding when the removed code did not create it', () => {
    const change = clearSlots(both, ' x1 ');
    expect(change.slots).toMatchObject({ company: A1, agent: null, binding: { type: 'COMPANY', ownerId: 'A' } });
  });

  it('without a code, clears both slots and releases both', () => {
    const change = clearSlots(both);
    expect(change.slots).toEqual(EMPTY_SLOTS);
    expect(change.release.sort()).toEqual(['a1', 'x1']);
  });

  it('changes nothing for a code that is not on the order', () => {
    expect(clearSlots(both, 'B1')).toEqual({ slots: both, changed: false, reserve: null, release: [] });
    expect(clearSlots(EMPTY_SLOTS)).toMatchObject({ changed: false, release: [] });
  });
});

describe('binding table of the contract (PromoBinding)', () => {
  it.each([
    ["an unbound order accepts any company's code", EMPTY_SLOTS.binding, B1, true],
    ["an unbound order accepts any agent's code", EMPTY_SLOTS.binding, Y1, true],
    ["an order bound to company A accepts A's company codes", bound('COMPANY', 'A'), A2, true],
    ["an order bound to company A refuses company B's codes", bound('COMPANY', 'A'), B1, false],
    ["an order bound to company A accepts any agent's code", bound('COMPANY', 'A'), Y1, true],
    ["an order bound to agent X accepts any company's code", bound('AGENT', 'X'), B1, true],
    ["an order bound to agent X accepts X's agent codes", bound('AGENT', 'X'), X2, true],
    ["an order bound to agent X refuses agent Y's codes", bound('AGENT', 'X'), Y1, false],
  ])('%s', (_label, binding, code, accepted) => {
    expect(bindingAllows(binding, code as SlotCode)).toBe(accepted);
  });
});

describe('deciding an apply', () => {
  it('rejects any code on an order that is not pending, before looking at the code', () => {
    expect(decideApply({ payable: false, slots: EMPTY_SLOTS }, A1, TODAY, 5)).toEqual({
      ok: false,
      reason: 'ORDER_NOT_PENDING',
    });
  });

  it.each([
    ['unknown', null],
    ['inactive', { ...A1, active: false }],
    ['owned by an inactive party', { ...A1, ownerActive: false }],
    ['not yet valid', { ...A1, validFrom: '2026-10-02' }],
    ['expired', { ...A1, validTo: '2026-09-30' }],
  ])('rejects a code that is %s as unusable', (_label, code) => {
    expect(decideApply(pending(EMPTY_SLOTS), code, TODAY, 5)).toEqual({ ok: false, reason: 'CODE_UNUSABLE' });
  });

  it('counts validity dates inclusively in Kathmandu business dates', () => {
    expect(codeIsCurrent({ ...usable, validFrom: TODAY, validTo: TODAY }, TODAY)).toBe(true);
  });

  it('rejects a code with no use left, unless the order already holds it', () => {
    expect(decideApply(pending(EMPTY_SLOTS), A1, TODAY, 0)).toEqual({ ok: false, reason: 'CODE_UNUSABLE' });
    const holding = fillSlot(EMPTY_SLOTS, A1).slots;
    expect(decideApply(pending(holding), A1, TODAY, 0)).toMatchObject({ ok: true, change: { changed: false } });
  });

  it('rejects a code the binding does not accept as invalid for the order', () => {
    const boundToA = fillSlot(EMPTY_SLOTS, A1).slots;
    expect(decideApply(pending(boundToA), B1, TODAY, 5)).toEqual({ ok: false, reason: 'INVALID_FOR_ORDER' });
  });

  it('counts remaining uses against the limit', () => {
    expect(remainingUses({ usageLimit: 5, usedCount: 3 })).toBe(2);
    expect(remainingUses({ usageLimit: 1, usedCount: 1 })).toBe(0);
    expect(remainingUses({ usageLimit: null, usedCount: 1000 })).toBe(Infinity);
  });
});

describe('promo totals', () => {
  const parts = {
    packagePrice: 1_000_000,
    includedDevices: [{ priceForDuration: 200_000 }],
    addedItems: [{ price: 150_000, quantity: 1 }],
    directDiscountPercent: 0,
  };

  it('applies a percentage to package plus kept devices only, never to added items', () => {
    const totals = projectTotals(parts, fillSlot(EMPTY_SLOTS, A1).slots);
    // 10 % of 12,000.00 = 1,200.00; added 1,500.00 is charged in full
    expect(totals).toMatchObject({ totalBefore: 1_350_000, discountAmount: 120_000, totalAfter: 1_230_000 });
  });

  it('combines company and agent discounts and never goes below zero', () => {
    const slots = fillSlot(
      fillSlot(EMPTY_SLOTS, companyCode('c', 'C', 100)).slots,
      agentCode('z', 'Z', 99_999_999),
    ).slots;
    const totals = projectTotals(parts, slots);
    expect(totals.price.companyPromoDiscount).toBe(1_200_000);
    expect(totals.price.agentPromoDiscount).toBe(0);
    expect(totals.totalAfter).toBe(150_000);
  });

  it('rounds a percentage half-up to whole minor units', () => {
    const totals = projectTotals(
      { ...parts, packagePrice: 1_005, includedDevices: [], addedItems: [] },
      fillSlot(EMPTY_SLOTS, companyCode('h', 'H', 10)).slots,
    );
    expect(totals.discountAmount).toBe(101); // 100.5 paisa rounds up
  });

  it('keeps totalAfter = totalBefore - discountAmount with a direct discount on top', () => {
    const totals = projectTotals({ ...parts, directDiscountPercent: 10 }, fillSlot(EMPTY_SLOTS, A1).slots);
    expect(totals.totalAfter).toBe(totals.totalBefore - totals.discountAmount);
    expect(totals.price.directDiscountAmount).toBe(108_000); // 10 % of 10,800.00 left after the promo
  });

  it('normalises codes to upper case without surrounding spaces', () => {
    expect(normalizePromoCode('  summit10 ')).toBe('SUMMIT10');
  });
});
