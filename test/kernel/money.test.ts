import {
  amountFromMinor,
  decimalStringFromMinor,
  minorFromAmount,
  minorFromDecimalString,
  percentOf,
} from '../../src/kernel/money';

describe('money in minor units', () => {
  it('reads numeric strings from the database exactly', () => {
    expect(minorFromDecimalString('18450.00')).toBe(1_845_000);
    expect(minorFromDecimalString('0.07')).toBe(7);
    expect(minorFromDecimalString('-12.5')).toBe(-1250);
  });

  it('writes numeric strings with two decimals', () => {
    expect(decimalStringFromMinor(1_845_005)).toBe('18450.05');
    expect(decimalStringFromMinor(-7)).toBe('-0.07');
  });

  it('turns JSON amounts into minor units without float drift', () => {
    expect(minorFromAmount(0.1 + 0.2)).toBe(30);
    expect(amountFromMinor(1_960_000)).toBe(19600);
    expect(amountFromMinor(1_960_050)).toBe(19600.5);
  });

  it('rounds percentages half-up to whole minor units', () => {
    expect(percentOf(1_000, 12.5)).toBe(125);
    expect(percentOf(999, 0.5)).toBe(5); // 4.995 -> 5
    expect(percentOf(1_845_000, 10)).toBe(184_500);
  });
});
