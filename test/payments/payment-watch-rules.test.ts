import {
  nextCheckAt,
  reversalPlan,
  watchEnds,
  watchOver,
  watchPhase,
  type WatchedAttempt,
} from '../../src/modules/payments/rules/payment-watch';
import type { WatchSettings } from '../../src/modules/payments/settings';

const T0 = new Date('2026-11-25T06:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const DAY = 86_400;

const settings: WatchSettings = {
  decisionWatchDays: 7,
  reversalWatchDays: 30,
  decisionFirstSeconds: 60,
  decisionMaxSeconds: 21_600,
  reversalFirstSeconds: 3600,
  reversalMaxSeconds: 86_400,
};
const open: WatchedAttempt = {
  status: 'INITIATED',
  gateway: 'card_gateway',
  gatewayConfirmed: false,
  createdAt: T0,
  expiresAt: at(900),
};
const closed: WatchedAttempt = { ...open, status: 'EXPIRED', closedReason: 'EXPIRED', completedAt: at(900) };
const paid: WatchedAttempt = { ...open, status: 'SUCCESS', gatewayConfirmed: true, completedAt: at(120) };

describe('which attempts the payment watch asks about', () => {
  it('an open attempt, and one we closed before the provider spoke, are UNDECIDED; a paid one is watched for reversals; cash and final words are not watched', () => {
    expect(watchPhase(open)).toBe('UNDECIDED');
    expect(watchPhase(closed)).toBe('UNDECIDED');
    expect(watchPhase({ ...closed, gatewayConfirmed: true })).toBeUndefined();
    expect(watchPhase(paid)).toBe('PAID');
    expect(watchPhase({ ...paid, providerReversal: 'PARTIAL' })).toBe('PAID');
    expect(watchPhase({ ...paid, providerReversal: 'FULL' })).toBeUndefined();
    expect(watchPhase({ ...paid, gateway: 'cash' })).toBeUndefined();
    expect(watchPhase({ ...paid, status: 'FAILED' })).toBeUndefined();
    expect(watchPhase({ ...paid, status: 'REFUND_PENDING' })).toBeUndefined();
  });

  it('an undecided attempt is watched PROVIDER_DECISION_WATCH_DAYS from its close (at least from its expiry), a paid one PAYMENT_REVERSAL_WATCH_DAYS from its capture', () => {
    expect(watchEnds(closed, 'UNDECIDED', settings)).toEqual(at(900 + 7 * DAY));
    expect(watchEnds(open, 'UNDECIDED', settings)).toEqual(at(900 + 7 * DAY));
    expect(watchEnds(paid, 'PAID', settings)).toEqual(at(120 + 30 * DAY));
    expect(watchOver(closed, 'UNDECIDED', at(900 + 7 * DAY - 1), settings)).toBe(false);
    expect(watchOver(closed, 'UNDECIDED', at(900 + 7 * DAY), settings)).toBe(true);
  });
});

describe('the back-off between two lookups', () => {
  it('starts at one minute and doubles to six hours for an undecided attempt', () => {
    const pauses = [1, 2, 3, 4, 9, 10, 11, 40].map(
      (checks) => (nextCheckAt(closed, 'UNDECIDED', checks, at(DAY), settings).getTime() - at(DAY).getTime()) / 1000,
    );
    expect(pauses).toEqual([60, 120, 240, 480, 15_360, 21_600, 21_600, 21_600]);
  });

  it('starts at an hour and doubles to a day for a paid attempt', () => {
    const pauses = [1, 2, 5, 6, 20].map(
      (checks) => (nextCheckAt(paid, 'PAID', checks, at(DAY), settings).getTime() - at(DAY).getTime()) / 1000,
    );
    expect(pauses).toEqual([3600, 7200, 57_600, 86_400, 86_400]);
  });

  it("never goes past an open attempt's expiry, nor past the end of the watch, whose last lookup falls on it", () => {
    expect(nextCheckAt(open, 'UNDECIDED', 5, at(300), settings)).toEqual(at(900));
    expect(nextCheckAt(closed, 'UNDECIDED', 30, at(900 + 7 * DAY - 100), settings)).toEqual(at(900 + 7 * DAY));
    expect(nextCheckAt(paid, 'PAID', 30, at(120 + 30 * DAY - 5), settings)).toEqual(at(120 + 30 * DAY));
  });
});

describe('a full reversal at the provider', () => {
  it('records for each share what our own refunds do not account for, and cancels each order the payment paid and still holds', () => {
    const plan = reversalPlan(
      [
        { orderId: 'a', share: 450_000, settlement: 'PAID', orderCancelled: false },
        // Cancelled by its company after the free look: refunded 405000, the fee of 45000 kept.
        { orderId: 'b', share: 450_000, settlement: 'REFUNDED', orderCancelled: true },
        // A late capture's share, owed back by a refund of ours.
        { orderId: 'c', share: 450_000, settlement: 'REFUND_PENDING', orderCancelled: false },
      ],
      [
        { orderId: 'b', amount: 405_000 },
        { orderId: 'c', amount: 450_000 },
      ],
    );
    expect(Object.fromEntries(plan.remainder)).toEqual({ a: 450_000, b: 45_000, c: 0 });
    expect(plan.cancel).toEqual(['a']);
  });
});
