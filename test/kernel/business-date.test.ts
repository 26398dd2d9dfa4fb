import { addDays, ageOn, inclusiveDays, isCalendarDate, kathmanduToday } from '../../src/kernel/business-date';

describe('Nepal business dates', () => {
  it('takes today from the Kathmandu clock (UTC+5:45), not the server zone', () => {
    expect(kathmanduToday(new Date('2026-11-23T18:14:59Z'))).toBe('2026-11-23');
    expect(kathmanduToday(new Date('2026-11-23T18:15:00Z'))).toBe('2026-11-24');
  });

  it('counts both ends of a window', () => {
    expect(inclusiveDays('2026-12-01', '2026-12-01')).toBe(1);
    expect(inclusiveDays('2026-12-30', '2027-01-02')).toBe(4);
  });

  it('adds days across month and leap-year ends', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('recognises only real calendar dates', () => {
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-1-01')).toBe(false);
  });

  it('computes age as a person counts it', () => {
    expect(ageOn('1990-06-15', '2026-06-14')).toBe(35);
    expect(ageOn('1990-06-15', '2026-06-15')).toBe(36);
  });
});
