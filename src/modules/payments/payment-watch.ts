import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentAttempt } from './entities/payment-attempt';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { reconcileAttempt, type ReconcileOutcome } from './reconciliation';
import { lockAttemptForSettlement } from './settlement';
import { recordProviderReversal, type ReversalOutcome } from './provider-reversal';
import {
  nextCheckAt,
  watchEnds,
  watchOver,
  watchPhase,
  type WatchedAttempt,
  type WatchPhase,
} from './rules/payment-watch';
import type { WatchSettings } from './settings';

export type WatchOutcome = ReconcileOutcome | ReversalOutcome;

export type WatchSummary = Record<WatchOutcome, number> & { checked: number; errors: number; gaveUp: number };

/** At most this many attempts per pass; the rest are due on the next one. */
const BATCH = 200;
/**
 * A claimed attempt is not due again for this long: a process that dies between the claim and
 * the lookup leaves it to the next pass of any process after it.
 */
const LEASE_SECONDS = 600;
/**
 * Attempts stay claimable this long past the end of their watch, so the last lookup (scheduled
 * on the end itself) is made by whichever pass comes after it. A watch that ended is scheduled
 * beyond it (endOfWatchMarker), so the query never picks it again.
 */
const GRACE_DAYS = 1;
const DAY_MS = 86_400_000;

const seconds = (n: number) => n * 1000;

/**
 * Claims the attempts due for a lookup at `now`, once per cluster: one statement picks them
 * (FOR UPDATE SKIP LOCKED: passes of other processes take other rows or none) and pushes their
 * next check a lease ahead, so no other pass picks them until this one has written their real
 * next check. Due: an open attempt left past PAYMENT_RECONCILE_AFTER_SECONDS or its expiry; one
 * we closed whose provider has not spoken, within PROVIDER_DECISION_WATCH_DAYS of the close; a
 * paid one within PAYMENT_REVERSAL_WATCH_DAYS of its capture; each when its next check has come.
 */
export async function claimDueAttempts(
  em: EntityManager,
  deps: Pick<PaymentDeps, 'payments'>,
  now: Date,
  limit = BATCH,
): Promise<string[]> {
  const { reconcileAfterSeconds, watch } = deps.payments;
  const at = (ms: number) => new Date(now.getTime() - ms);
  const rows: { id: string }[] = await em.getConnection().execute(
    `with due as (
       select "id" from "payment_attempt"
        where "gateway" <> 'cash' and ("next_check_at" is null or "next_check_at" <= ?)
          and (
            ("status" = 'INITIATED' and "gateway_confirmed_at" is null and ("created_at" <= ? or "expires_at" <= ?))
            or ("status" in ('CANCELLED', 'EXPIRED') and "gateway_confirmed_at" is null and "closed_reason" is not null and "completed_at" >= ?)
            or ("status" = 'SUCCESS' and ? > 0 and "provider_reversal" is distinct from 'FULL' and "completed_at" >= ?
                and ("next_check_at" is not null or "completed_at" <= ?))
          )
        order by coalesce("next_check_at", "created_at")
        limit ?
        for update skip locked
     )
     update "payment_attempt" a set "next_check_at" = ? from due where a."id" = due."id" returning a."id"`,
    [
      now,
      at(seconds(reconcileAfterSeconds)),
      now,
      at((watch.decisionWatchDays + GRACE_DAYS) * DAY_MS),
      // PAYMENT_REVERSAL_WATCH_DAYS=0: paid attempts are not looked up again at all.
      watch.reversalWatchDays,
      at((watch.reversalWatchDays + GRACE_DAYS) * DAY_MS),
      at(seconds(watch.reversalFirstSeconds)),
      limit,
      new Date(now.getTime() + seconds(LEASE_SECONDS)),
    ],
  );
  return rows.map((row) => row.id);
}

/**
 * One pass of the payment watch (the reconciliation job's pass, and `ops payment reconcile`):
 * every due attempt is put to its provider, the answer recorded, and its next lookup scheduled
 * with back-off. Undecided attempts go through reconcileAttempt (a capture, even days late, is
 * settled or owed back); paid ones are checked for a refund or reversal made at the provider
 * (recordProviderReversal).
 */
export async function watchDueAttempts(em: EntityManager, deps: PaymentDeps, now = new Date()): Promise<WatchSummary> {
  const summary: WatchSummary = {
    checked: 0,
    errors: 0,
    gaveUp: 0,
    PAID: 0,
    LATE_CAPTURE: 0,
    FAILED: 0,
    CANCELLED: 0,
    EXPIRED: 0,
    CONFIRMED_CLOSED: 0,
    UNCHANGED: 0,
    MISMATCH: 0,
    REVERSED: 0,
    PARTIALLY_REVERSED: 0,
  };
  for (const id of await claimDueAttempts(em.fork(), deps, now)) {
    summary.checked += 1;
    const before = await em.fork().findOneOrFail(PaymentAttempt, id);
    const phase = watchPhase(watchedOf(before));
    try {
      if (phase) summary[await checkAttempt(em, before, phase, deps, now)] += 1;
    } catch (error) {
      summary.errors += 1;
      deps.logger.error({ err: error, paymentRef: before.paymentRef }, 'the payment watch could not check an attempt');
    }
    if (phase && (await scheduleNextCheck(em, id, phase, deps.payments.watch, now, deps))) summary.gaveUp += 1;
  }
  return summary;
}

async function checkAttempt(
  em: EntityManager,
  attempt: PaymentAttempt,
  phase: WatchPhase,
  deps: PaymentDeps,
  now: Date,
): Promise<WatchOutcome> {
  if (phase === 'UNDECIDED') return reconcileAttempt(em, attempt.id, deps, now);
  const lookup = await gatewayOfAttempt(deps, attempt).lookupStatus(attempt);
  if (!lookup.reversal) {
    if (lookup.decided && lookup.report.status !== 'SUCCESS') {
      // A paid attempt the provider now calls something else than captured or refunded: an operator's case.
      deps.logger.error(
        { paymentRef: attempt.paymentRef, gateway: attempt.gateway, providerStatus: lookup.report.status },
        'provider no longer reports a paid attempt as captured',
      );
    }
    return 'UNCHANGED';
  }
  const reversal = lookup.reversal;
  return em.fork().transactional(async (tx) => {
    const locked = await lockAttemptForSettlement(tx, attempt.id);
    return recordProviderReversal(
      tx,
      locked,
      reversal,
      lookup.decided ? lookup.report.gatewayTransactionId : undefined,
      now,
      deps,
    );
  });
}

/**
 * Writes when the attempt is asked next, from what it is now: back-off within its phase, a fresh
 * start when it moved to another (an undecided attempt just paid), and past the end of its watch
 * a marker that takes it out of the query, with a line for the operator when the provider never
 * decided. Returns whether the watch gave up on an undecided payment.
 */
async function scheduleNextCheck(
  em: EntityManager,
  id: string,
  phaseBefore: WatchPhase,
  settings: WatchSettings,
  now: Date,
  deps: Pick<PaymentDeps, 'logger'>,
): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const attempt = await tx.findOneOrFail(PaymentAttempt, id);
    const watched = watchedOf(attempt);
    const phase = watchPhase(watched);
    if (!phase) {
      attempt.nextCheckAt = null;
      return false;
    }
    const checks = phase === phaseBefore ? attempt.checkCount + 1 : 0;
    attempt.checkCount = checks;
    if (phase === phaseBefore && watchOver(watched, phase, now, settings)) {
      attempt.nextCheckAt = endOfWatchMarker(watched, phase, settings);
      if (phase === 'UNDECIDED') {
        deps.logger.error(
          { paymentRef: attempt.paymentRef, gateway: attempt.gateway, checks },
          'the provider gave no final word within PROVIDER_DECISION_WATCH_DAYS: an operator must settle this payment with the provider',
        );
        return true;
      }
      return false;
    }
    // A paid attempt starts its own watch from its capture (the claim query lets it wait PAYMENT_REVERSAL_WATCH_FIRST_SECONDS).
    attempt.nextCheckAt = phase === phaseBefore ? nextCheckAt(watched, phase, checks, now, settings) : null;
    return false;
  });
}

/** Beyond the claim query's grace: the attempt is never picked again. */
const endOfWatchMarker = (attempt: WatchedAttempt, phase: WatchPhase, settings: WatchSettings) =>
  new Date(watchEnds(attempt, phase, settings).getTime() + 2 * GRACE_DAYS * DAY_MS);

const watchedOf = (attempt: PaymentAttempt): WatchedAttempt => ({
  status: attempt.status,
  gateway: attempt.gateway,
  gatewayConfirmed: !!attempt.gatewayConfirmedAt,
  closedReason: attempt.closedReason ?? null,
  createdAt: attempt.createdAt,
  completedAt: attempt.completedAt ?? null,
  expiresAt: attempt.expiresAt,
  providerReversal: attempt.providerReversal ?? null,
});

/** The attempts the watch is following, per provider and phase: the `payment_watched_attempts` gauge. */
export async function watchedAttemptCounts(
  em: EntityManager,
  deps: Pick<PaymentDeps, 'payments' | 'gateways'>,
  now = new Date(),
): Promise<{ provider: string; state: WatchPhase; count: number }[]> {
  const { watch } = deps.payments;
  const rows: { gateway: string; provider: string | null; state: WatchPhase; count: string }[] = await em
    .getConnection()
    .execute(
      `select "gateway", "provider", case when "status" = 'SUCCESS' then 'PAID' else 'UNDECIDED' end as "state", count(*)::text as "count"
       from "payment_attempt"
      where "gateway" <> 'cash'
        and (
          ("status" = 'INITIATED' and "gateway_confirmed_at" is null)
          or ("status" in ('CANCELLED', 'EXPIRED') and "gateway_confirmed_at" is null and "closed_reason" is not null and "completed_at" >= ?)
          or ("status" = 'SUCCESS' and "provider_reversal" is distinct from 'FULL' and "completed_at" >= ?)
        )
      group by 1, 2, 3`,
      [
        new Date(now.getTime() - watch.decisionWatchDays * DAY_MS),
        new Date(now.getTime() - watch.reversalWatchDays * DAY_MS),
      ],
    );
  // Both gateways may be served by one provider: their counts add up under its name.
  const counts = new Map<string, { provider: string; state: WatchPhase; count: number }>();
  for (const row of rows) {
    const provider =
      row.provider ??
      deps.gateways.get(row.gateway === 'wallet_gateway' ? 'wallet_gateway' : 'card_gateway')?.provider ??
      'none';
    const entry = counts.get(`${provider}:${row.state}`) ?? { provider, state: row.state, count: 0 };
    entry.count += Number(row.count);
    counts.set(`${provider}:${row.state}`, entry);
  }
  return [...counts.values()];
}
