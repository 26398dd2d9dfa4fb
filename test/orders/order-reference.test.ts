import { formatReference, isReference, isUuid } from '../../src/modules/orders/rules/order-reference';

describe('order and group references', () => {
  it('formats ORD-, ORDN- and GRP- references with a six-digit sequence', () => {
    expect(formatReference('ORD', '2026', 142)).toBe('ORD-2026-000142');
    expect(formatReference('ORDN', '2026', '142')).toBe('ORDN-2026-000142');
    expect(formatReference('GRP', '2027', 17)).toBe('GRP-2027-000017');
    expect(formatReference('POL', '2026', 87)).toBe('POL-2026-000087');
  });

  it('lets the sequence grow past six digits instead of wrapping', () => {
    expect(formatReference('ORD', '2026', '12345678')).toBe('ORD-2026-12345678');
  });

  it('refuses a malformed year or a non-positive sequence', () => {
    expect(() => formatReference('ORD', '26', 1)).toThrow();
    expect(() => formatReference('ORD', '2026', 0)).toThrow();
    expect(() => formatReference('ORD', '2026', '-3')).toThrow();
  });

  it('tells the kinds apart, so ORDN is never read as ORD', () => {
    expect(isReference('ORD', 'ORD-2026-000142')).toBe(true);
    expect(isReference('ORD', 'ORDN-2026-000142')).toBe(false);
    expect(isReference('ORDN', 'ORDN-2026-000142')).toBe(true);
    expect(isReference('GRP', 'GRP-2026-000017')).toBe(true);
    expect(isReference('POL', 'POL-2026-000087')).toBe(true);
    expect(isReference('POL', 'pol-2026-000087')).toBe(false);
    expect(isReference('POL', 'POL-2026-000087\n')).toBe(false);
    expect(isReference('ORD', 'ORD-2026-000142-1758356000000')).toBe(false);
  });

  it('recognises order UUIDs', () => {
    expect(isUuid('2d8f4a6c-9e1b-4c3d-8f5a-7b9c1d3e5f67')).toBe(true);
    expect(isUuid('ORD-2026-000142')).toBe(false);
  });
});
