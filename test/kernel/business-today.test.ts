import { kathmanduToday } from '../../src/kernel/business-date';
import {
  businessNow,
  businessToday,
  setTestToday,
  testToday,
  withRequestBusinessDay,
} from '../../src/kernel/business-today';

/** Today in Nepal for business rules (decision record 0083): a request's test clock, else the real date; outside a request always the real one. */
describe('businessToday', () => {
  const now = new Date('2030-09-20T20:00:00Z'); // 2030-09-21 01:45 in Kathmandu

  it('outside a request (jobs, the CLI) is the Kathmandu date, and no test clock can be set there', () => {
    expect(businessToday(now)).toBe('2030-09-21');
    expect(businessNow(now)).toBe(now);
    expect(() => setTestToday('2030-10-15')).toThrow(/outside a request/);
  });

  it("in a request on a test clock is the clock's date, and deadlines move by the same days", () => {
    withRequestBusinessDay(() => {
      setTestToday('2030-10-15');
      expect(testToday()).toBe('2030-10-15');
      expect(businessToday(now)).toBe('2030-10-15');
      expect(businessNow(now).toISOString()).toBe('2030-10-14T20:00:00.000Z');
      setTestToday(undefined);
      expect(businessToday(now)).toBe('2030-09-21');
    });
  });

  it("keeps each request's clock to itself, across awaits of interleaved requests", async () => {
    const seen: string[] = [];
    const request = (today: string | undefined) =>
      withRequestBusinessDay(async () => {
        setTestToday(today);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(businessToday());
      });
    await Promise.all([request('2030-10-15'), request(undefined), request('2031-01-01')]);
    expect(seen.sort()).toEqual(['2030-10-15', '2031-01-01', kathmanduToday()].sort());
  });
});
