import {
  departureChangeRefusal,
  departureShiftError,
  movedDates,
  newDepartureError,
  type MovableOrder,
} from '../../src/modules/orders/rules/departure-change';
import { ageOutsideBand, departureDateError } from '../../src/modules/orders/rules/order-request';

const today = '2031-09-20';
const booked: MovableOrder = {
  orderRef: 'ORD-2031-000142',
  status: 'PAID',
  departureDate: '2031-10-05',
  coverageStartDate: '2031-10-05',
  coverageEndDate: '2031-10-18',
};
const standard = { code: 'TRK-STD-3000', minAge: 1, maxAge: 75 };

describe("whether an order's dates may move", () => {
  it('a PENDING or PAID order whose cover starts after today may move', () => {
    expect(departureChangeRefusal(booked, today)).toBeNull();
    expect(departureChangeRefusal({ ...booked, status: 'PENDING' }, today)).toBeNull();
    expect(departureChangeRefusal(booked, '2031-10-04')).toBeNull();
  });

  it('from the first day of cover (Nepal date) on, paid or not, the dates are fixed', () => {
    for (const status of ['PAID', 'PENDING']) {
      expect(departureChangeRefusal({ ...booked, status }, '2031-10-05')).toBe(
        'The cover of order ORD-2031-000142 started on 2031-10-05 (Nepal date); its dates can no longer change',
      );
      expect(departureChangeRefusal({ ...booked, status }, '2031-10-30')).toMatch(/started on 2031-10-05/);
    }
  });

  it('a cancelled order never moves, and neither does a completed or closed one', () => {
    expect(departureChangeRefusal({ ...booked, status: 'CANCELLED' }, today)).toBe(
      "Order ORD-2031-000142 is CANCELLED; a cancelled order's dates cannot change",
    );
    for (const status of ['COMPLETED', 'CLOSED']) {
      expect(departureChangeRefusal({ ...booked, status }, today)).toBe(
        `Order ORD-2031-000142 is ${status}; only a PENDING or PAID order's dates can change`,
      );
    }
  });
});

describe('the new departure date', () => {
  it('may be any date creation accepts: today or later', () => {
    expect(newDepartureError(today, { dateOfBirth: '1991-03-14' }, standard, today)).toBeNull();
    expect(newDepartureError('2031-09-19', { dateOfBirth: '1991-03-14' }, standard, today)).toBe(
      departureDateError('2031-09-19', today),
    );
    expect(newDepartureError('2031-09-19', { dateOfBirth: '1991-03-14' }, standard, today)).toBe(
      'must not be before today (2031-09-20, Kathmandu)',
    );
  });

  it("keeps the traveller in the package's age band: a birthday in between that leaves it is refused, one that stays in it is not", () => {
    const turns76 = { dateOfBirth: '1955-10-10' };
    expect(newDepartureError('2031-10-09', turns76, standard, today)).toBeNull();
    expect(newDepartureError('2031-10-10', turns76, standard, today)).toBe(
      'the traveller would be 76 on 2031-10-10; package TRK-STD-3000 covers ages 1 to 75',
    );
    const turns1 = { dateOfBirth: '2030-10-10' };
    expect(newDepartureError('2031-10-09', turns1, standard, today)).toMatch(/would be 0 on 2031-10-09/);
    expect(newDepartureError('2031-10-10', turns1, standard, today)).toBeNull();
  });

  it("is checked with creation's own age rule", () => {
    expect(ageOutsideBand('1955-10-10', '2031-10-10', standard)).toBe(76);
    expect(ageOutsideBand('1955-10-10', '2031-10-09', standard)).toBeNull();
  });
});

describe('the moved window', () => {
  it('shifts by as many days as the departure, so it keeps its length, across months and years', () => {
    expect(movedDates(booked, '2031-10-12')).toEqual({
      departureDate: '2031-10-12',
      coverageStartDate: '2031-10-12',
      coverageEndDate: '2031-10-25',
    });
    expect(movedDates(booked, '2031-09-28')).toEqual({
      departureDate: '2031-09-28',
      coverageStartDate: '2031-09-28',
      coverageEndDate: '2031-10-11',
    });
    expect(movedDates(booked, '2031-12-25')).toEqual({
      departureDate: '2031-12-25',
      coverageStartDate: '2031-12-25',
      coverageEndDate: '2032-01-07',
    });
    expect(
      movedDates(
        { departureDate: '2032-02-20', coverageStartDate: '2032-02-20', coverageEndDate: '2032-03-05' },
        '2032-02-27',
      ),
    ).toEqual({ departureDate: '2032-02-27', coverageStartDate: '2032-02-27', coverageEndDate: '2032-03-12' });
  });
});

describe('how far a date change may move a departure', () => {
  it('at most the given number of days after the departure first booked, that day included', () => {
    expect(departureShiftError('2032-10-04', '2031-10-05', 365)).toBeNull();
    expect(departureShiftError('2032-10-05', '2031-10-05', 365)).toBe(
      'must be at most 365 days after the departure the order was booked with (2031-10-05): 2032-10-04 at the latest',
    );
    expect(departureShiftError('2031-09-30', '2031-10-05', 0)).toBeNull();
  });
});
