import { quoteRequestErrors, tripWindow } from '../../src/modules/catalogue/rules/quote-request';

const today = '2026-11-23';
const base = { startDate: '2026-12-01', duration: 10, maxAltitude: 3000 };

describe('quote request rules', () => {
  it('accepts a sound request', () => {
    expect(quoteRequestErrors(base, today)).toEqual({});
  });

  it('wants trip length one way only', () => {
    expect(quoteRequestErrors({ ...base, endDate: '2026-12-05' }, today)).toHaveProperty('duration');
    expect(quoteRequestErrors({ startDate: base.startDate, maxAltitude: 3000 }, today)).toHaveProperty('endDate');
  });

  it('wants altitude one way only', () => {
    expect(quoteRequestErrors({ ...base, routeId: 'r' }, today)).toHaveProperty('maxAltitude');
    expect(quoteRequestErrors({ startDate: base.startDate, duration: 3 }, today)).toHaveProperty('maxAltitude');
  });

  it('allows a trip starting today in Kathmandu but not yesterday', () => {
    expect(quoteRequestErrors({ ...base, startDate: today }, today)).toEqual({});
    expect(quoteRequestErrors({ ...base, startDate: '2026-11-22' }, today)).toHaveProperty('startDate');
  });

  it('derives an inclusive window from a duration', () => {
    expect(tripWindow({ startDate: '2026-12-01', duration: 3 })).toEqual({
      startDate: '2026-12-01',
      endDate: '2026-12-03',
      durationDays: 3,
    });
  });
});
